package org.caseassignments.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.TestApplication;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestNetwork;
import org.junit.jupiter.api.Test;
import org.springframework.boot.Banner;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * The actuator's port is the API's own, or it listens on every interface, only when an operator asked for it: an
 * unset or empty management port, or the API's port, refuses the start, and the management server binds the
 * loopback address unless {@code management.server.address} names another.
 */
class ManagementPortIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @Test
    void shouldRefuseToStartWhenTheManagementPortIsEmpty() {
        assertThatThrownBy(() -> start("--management.server.port="))
                .hasStackTraceContaining("management.server.port")
                .hasStackTraceContaining("MUTATION_API_MANAGEMENT_PORT")
                .hasStackTraceContaining("server.port (MUTATION_API_PORT)");
    }

    @Test
    void shouldRefuseToStartWhenTheManagementAddressIsEmptyWhichWouldMeanEveryInterface() {
        assertThatThrownBy(() -> start("--management.server.address= "))
                .hasStackTraceContaining("management.server.address (MUTATION_API_MANAGEMENT_ADDRESS)");
    }

    @Test
    void shouldRefuseToStartWhenTheManagementPortIsTheApiPort() {
        int port = TestNetwork.freePort();

        assertThatThrownBy(() -> start("--server.port=" + port, "--management.server.port=" + port))
                .hasStackTraceContaining("management.server.port (MUTATION_API_MANAGEMENT_PORT) is " + port)
                .hasStackTraceContaining("server.port (MUTATION_API_PORT)");
    }

    @Test
    void shouldServeTheManagementPortOnTheLoopbackAddressOnlyByDefault() {
        InetAddress elsewhere = TestNetwork.nonLoopbackAddress();

        try (ConfigurableApplicationContext api = start()) {
            int management = Integer.parseInt(api.getEnvironment().getProperty("local.management.port"));
            int port = Integer.parseInt(api.getEnvironment().getProperty("local.server.port"));

            assertThat(new ApiClient(management).get("/actuator/health", null).status()).isEqualTo(200);
            assertThat(TestNetwork.connects(elsewhere, management)).as("management port %d on %s", management, elsewhere).isFalse();
            assertThat(TestNetwork.connects(elsewhere, port)).as("the API's port %d on %s", port, elsewhere).isTrue();
        }
    }

    @Test
    void shouldServeTheManagementPortOnTheAddressItIsGiven() {
        InetAddress elsewhere = TestNetwork.nonLoopbackAddress();

        try (ConfigurableApplicationContext api = start("--management.server.address=" + elsewhere.getHostAddress())) {
            int management = Integer.parseInt(api.getEnvironment().getProperty("local.management.port"));

            assertThat(TestNetwork.connects(elsewhere, management)).as("management port %d on %s", management, elsewhere).isTrue();
            assertThat(TestNetwork.connects(InetAddress.getLoopbackAddress(), management)).isFalse();
        }
    }

    private static ConfigurableApplicationContext start(String... own) {
        return new SpringApplicationBuilder(MutationApiApplication.class)
                .bannerMode(Banner.Mode.OFF).run(TestApplication.arguments(DB, own));
    }
}
