package org.caseassignments.api;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class MutationApiApplication {

    public static void main(String[] args) {
        SpringApplication.run(MutationApiApplication.class, args);
    }
}
