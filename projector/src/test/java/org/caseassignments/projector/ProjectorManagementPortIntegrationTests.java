package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestNetwork;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;

/** The actuator's port is never the projector's public one: an unset, empty or equal management port refuses the start. */
class ProjectorManagementPortIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    static final ProjectorTopics TOPICS = ProjectorTopics.unique(1);

    @Test
    void shouldRefuseToStartWhenTheManagementPortIsEmpty() {
        Map<String, String> properties = properties("0", "");

        assertThatThrownBy(() -> ProjectorInstance.start(properties, WebApplicationType.SERVLET).close())
                .hasStackTraceContaining("management.server.port (PROJECTOR_MANAGEMENT_PORT) is empty")
                .hasStackTraceContaining("server.port (PROJECTOR_PORT)");
    }

    @Test
    void shouldRefuseToStartWhenTheManagementAddressIsEmptyWhichWouldMeanEveryInterface() {
        Map<String, String> properties = properties("0", "0");
        properties.put("management.server.address", "");

        assertThatThrownBy(() -> ProjectorInstance.start(properties, WebApplicationType.SERVLET).close())
                .hasStackTraceContaining("management.server.address (PROJECTOR_MANAGEMENT_ADDRESS)");
    }

    @Test
    void shouldRefuseToStartWhenTheManagementPortIsTheProbesPort() {
        String port = Integer.toString(TestNetwork.freePort());
        Map<String, String> properties = properties(port, port);

        assertThatThrownBy(() -> ProjectorInstance.start(properties, WebApplicationType.SERVLET).close())
                .hasStackTraceContaining("management.server.port (PROJECTOR_MANAGEMENT_PORT) is " + port)
                .hasStackTraceContaining("server.port (PROJECTOR_PORT)");
    }

    private static Map<String, String> properties(String port, String managementPort) {
        Map<String, String> properties = ProjectorInstance.properties(DB, TOPICS, ProjectorInstance.uniqueApplicationId());
        properties.put("server.port", port);
        properties.put("management.server.port", managementPort);
        return properties;
    }
}
