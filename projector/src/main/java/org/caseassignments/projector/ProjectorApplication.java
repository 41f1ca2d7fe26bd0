package org.caseassignments.projector;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

@SpringBootApplication
@ConfigurationPropertiesScan
public class ProjectorApplication {

    public static void main(String[] args) {
        SpringApplication.run(ProjectorApplication.class, args);
    }
}
