package org.caseassignments.backfill;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Runs one subcommand and exits with its code: as {@link ExitCodes} lists them. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class BackfillApplication {

    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(BackfillApplication.class);
        app.setWebApplicationType(WebApplicationType.NONE);
        int exit;
        try {
            exit = SpringApplication.exit(app.run(args));
        } catch (RuntimeException e) {
            System.err.println("backfill: could not start: " + rootMessage(e));
            exit = ExitCodes.failure(e);
        }
        System.exit(exit);
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.toString() : root.getMessage();
    }
}
