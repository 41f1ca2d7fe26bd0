package org.caseassignments.api.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.UUID;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/** A running service picks up a new ruleset from its directory, and refuses a broken one. */
@ApiIntegrationTest
class RulesetReplacementIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    static final Path RULESETS = temporaryDirectory();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("policy.directory", RULESETS::toString);
        registry.add("policy.reload-interval", () -> "100ms");
    }

    @LocalServerPort
    int port;

    @LocalManagementPort
    int managementPort;

    @Autowired
    RulesetRegistry registry;

    @Autowired
    RulesetArchive archive;

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldChangeDecisionsWhenARulesetIsReplacedAndKeepTheLastGoodOneWhenAReplacementIsInvalid() throws IOException {
        ApiClient api = new ApiClient(port);
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String placement = "/placements/" + Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        String otherCaseworker = TestTokens.caseworker("w-9").token();
        assertThat(api.get(placement, otherCaseworker).status()).isEqualTo(403);

        replace("georgia.yaml", RulesetRegistryTests.permissive("georgia", "2.0.0"));

        await().atMost(Duration.ofSeconds(10)).alias("georgia 2.0.0 to allow the read")
                .until(() -> api.get(placement, otherCaseworker).status() == 200);
        assertThat(new ApiClient(managementPort).get("/actuator/info", null).json().path("rulesets").path("georgia").asString())
                .isEqualTo("2.0.0");

        replace("georgia.yaml", RulesetRegistryTests.permissive("georgia", "3.0.0")
                .replace("condition: \"true\"", "condition: \"claims.nonsense(\""));

        await().atMost(Duration.ofSeconds(10)).alias("the broken georgia 3.0.0 to be rejected")
                .until(() -> registry.rejectedFiles().contains(RULESETS.resolve("georgia.yaml")));
        assertThat(api.get(placement, otherCaseworker).status()).isEqualTo(200);
        assertThat(registry.versions()).containsEntry("georgia", "2.0.0");
    }

    /**
     * A restart is a new registry over the same directory and the same database: with an invalid
     * file on disk it serves the version accepted before (by this or any instance), not nothing.
     */
    @Test
    void shouldServeTheLastAcceptedVersionAfterARestartThatFindsAnInvalidFile() throws IOException {
        Path directory = temporaryDirectory();
        write(directory, "ohio.yaml", ohio("1.0.0", "'admin' in claims.roles"));
        RulesetRegistry first = new RulesetRegistry(directory, RulesetCompiler.service(), archive);
        assertThat(first.versions()).containsEntry("ohio", "1.0.0");
        assertThat(jdbc.queryForObject("SELECT version FROM accepted_rulesets WHERE jurisdiction = 'ohio'", String.class))
                .isEqualTo("1.0.0");

        write(directory, "ohio.yaml", ohio("2.0.0", "resource.attrs.capacity > 0"));
        RulesetRegistry restarted = new RulesetRegistry(directory, RulesetCompiler.service(), archive);
        RulesetRegistry restartedWithoutArchive = new RulesetRegistry(directory, RulesetCompiler.service(),
                RulesetArchive.NONE);

        assertThat(restarted.versions()).containsEntry("ohio", "1.0.0");
        assertThat(restarted.rejectedFiles()).containsExactly(directory.resolve("ohio.yaml"));
        assertThat(restarted.forJurisdiction("ohio").orElseThrow().origin()).startsWith("archive");
        assertThat(restartedWithoutArchive.versions()).doesNotContainKey("ohio");
    }

    @Test
    void shouldNotBringARemovedReplacementBackAfterARestart() throws IOException {
        Path directory = temporaryDirectory();
        write(directory, "utah.yaml", ohio("1.0.0", "'admin' in claims.roles").replace("ohio", "utah"));
        RulesetRegistry registry = new RulesetRegistry(directory, RulesetCompiler.service(), archive);

        Files.delete(directory.resolve("utah.yaml"));
        registry.reload();
        write(directory, "utah.yaml", "rules: [");
        RulesetRegistry restarted = new RulesetRegistry(directory, RulesetCompiler.service(), archive);

        assertThat(jdbc.queryForObject("SELECT count(*) FROM accepted_rulesets WHERE jurisdiction = 'utah'", Integer.class))
                .isZero();
        assertThat(restarted.versions()).doesNotContainKey("utah");
    }

    private static String ohio(String version, String condition) {
        return """
                jurisdiction: ohio
                version: "%s"
                rules:
                  - id: admins-maintain-foster-homes
                    resources: [foster_home]
                    actions: [read, update]
                    condition: "%s"
                """.formatted(version, condition);
    }

    private static void write(Path directory, String name, String content) throws IOException {
        Path staging = Files.createTempFile(directory.getParent(), "ruleset-", ".tmp");
        Files.writeString(staging, content);
        Files.move(staging, directory.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static void replace(String name, String content) throws IOException {
        Path staging = Files.createTempFile(RULESETS.getParent(), "ruleset-", ".tmp");
        Files.writeString(staging, content);
        Files.move(staging, RULESETS.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static Path temporaryDirectory() {
        try {
            Path directory = Files.createTempDirectory("rulesets-");
            directory.toFile().deleteOnExit();
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
