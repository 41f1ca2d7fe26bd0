package org.caseassignments.api;

import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Refuses to start when the actuator would be served on the API's own port, to any caller: health details, info,
 * metrics and the Prometheus scrape are for operators only (decision 42). Spring Boot serves them on the API's port
 * when {@code management.server.port} is unset, empty or the API's port; {@code 0} (a free port, as tests use) is
 * always another one. An empty {@code management.server.address} is refused too: Spring reads it as every interface.
 */
@Component
class ManagementPortCheck {

    ManagementPortCheck(Environment environment) {
        String address = environment.getProperty("management.server.address");
        if (address != null && address.isBlank()) {
            // Spring reads a blank address as none, and none as every interface: the loopback default undone
            throw new IllegalStateException("management.server.address (MUTATION_API_MANAGEMENT_ADDRESS) is empty, so the actuator "
                    + "(health details, metrics, Prometheus) would listen on every interface: leave it unset for "
                    + "loopback, or name the address (0.0.0.0 for every interface, on purpose)");
        }
        if (ManagementPortType.get(environment) != ManagementPortType.DIFFERENT) {
            throw new IllegalStateException("management.server.port (MUTATION_API_MANAGEMENT_PORT) is "
                    + described(environment.getProperty("management.server.port"))
                    + ", so the actuator (health details, info, metrics, Prometheus) would be served on the API's port "
                    + "server.port (MUTATION_API_PORT) to any caller: set MUTATION_API_MANAGEMENT_PORT to a port of its "
                    + "own (9080 by default), kept internal");
        }
    }

    private static String described(String port) {
        return port == null || port.isBlank() ? "empty" : port;
    }
}
