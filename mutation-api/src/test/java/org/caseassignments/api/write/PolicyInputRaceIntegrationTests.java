package org.caseassignments.api.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Backends;
import org.caseassignments.api.testsupport.OpenTransaction;
import org.caseassignments.api.testsupport.Race;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Every field a decision consumed is compared under the row lock, not only the assignment pair. Each
 * race is staged as in {@link GuardedUpdateIntegrationTests}: another writer's change of the foster
 * home is applied and held uncommitted, so the request's pre-read still sees the old row and its
 * locked re-read waits; the test commits the change once PostgreSQL shows the request waiting. The
 * requests list both versions in If-Match (ETags are sequential), so only the gate can refuse them.
 *
 * <p>Georgia runs its bundled ruleset (county directors: {@code resource.attrs.admin_unit}); the
 * {@code ohio} ruleset, from the policy directory, also reads {@code resource.attrs.license_status}.
 */
@ApiIntegrationTest
class PolicyInputRaceIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    static final Path RULESETS = rulesets();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("policy.directory", RULESETS::toString);
    }

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final Backends backends = new Backends(jdbc);
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldRefuse409WhenAnAdminMovesTheHomeOutOfTheDirectorsUnitBetweenPreReadAndLock() {
        UUID home = Rows.fosterHome().adminUnit("u1").licenseStatus("ACTIVE").insert(jdbc);
        String director = TestTokens.countyDirector("d-1", "u1").token();

        Reply raced;
        try (OpenTransaction move = change(home, "admin_unit = 'u2'")) {
            raced = Race.commitWhileItWaits(api, backends, move, ApiClient.request("PATCH", "/foster-homes/" + home)
                    .token(director).ifMatch(TestETags.fosterHome(home, 1) + ", " + TestETags.fosterHome(home, 2))
                            .json("{\"name\": \"Renamed by the director\"}"));
        }

        assertThat(raced.status()).as(raced.toString()).isEqualTo(409);
        assertThat(raced.code()).isEqualTo("CONCURRENT_MODIFICATION");
        assertThat(raced.body()).contains("attrs.admin_unit");
        assertThat(homeRow(home))
                .containsEntry("name", "Maple House")
                .containsEntry("admin_unit", "u2")
                .containsEntry("row_version", 2L);
        assertThat(api.patch("/foster-homes/" + home, director, "\"2\"", "{\"name\": \"Retry\"}").status())
                .as("a fresh decision on the moved home denies").isEqualTo(403);
    }

    @Test
    void shouldRefuse409WhenTheLicenseIsSuspendedBetweenPreReadAndLockUnderARulesetThatReadsIt() {
        UUID home = Rows.fosterHome().adminUnit("u1").licenseStatus("ACTIVE").jurisdiction("ohio").insert(jdbc);
        String director = TestTokens.countyDirector("d-1", "u1").jurisdiction("ohio").token();

        Reply raced;
        try (OpenTransaction suspension = change(home, "license_status = 'SUSPENDED'")) {
            raced = Race.commitWhileItWaits(api, backends, suspension,
                    ApiClient.request("PATCH", "/foster-homes/" + home)
                            .token(director).ifMatch(TestETags.fosterHome(home, 1) + ", " + TestETags.fosterHome(home, 2))
                                    .json("{\"capacity\": 9}"));
        }

        assertThat(raced.status()).as(raced.toString()).isEqualTo(409);
        assertThat(raced.code()).isEqualTo("CONCURRENT_MODIFICATION");
        assertThat(raced.body()).contains("attrs.license_status");
        assertThat(homeRow(home))
                .containsEntry("capacity", 2)
                .containsEntry("license_status", "SUSPENDED")
                .containsEntry("row_version", 2L);
    }

    @Test
    void shouldLetTheDirectorWriteWhenOnlyAFieldNoRuleReadsChangedMeanwhile() {
        UUID home = Rows.fosterHome().adminUnit("u1").licenseStatus("ACTIVE").insert(jdbc);
        String director = TestTokens.countyDirector("d-1", "u1").token();

        Reply raced;
        try (OpenTransaction rename = change(home, "name = 'Renamed by an admin'")) {
            raced = Race.commitWhileItWaits(api, backends, rename, ApiClient.request("PATCH", "/foster-homes/" + home)
                    .token(director).ifMatch(TestETags.fosterHome(home, 1) + ", " + TestETags.fosterHome(home, 2))
                            .json("{\"capacity\": 5}"));
        }

        assertThat(raced.status()).as("georgia's rules read no license status and no name: " + raced).isEqualTo(200);
        assertThat(homeRow(home)).containsEntry("name", "Renamed by an admin").containsEntry("capacity", 5);
    }

    /** Another writer's change of the home, applied and held uncommitted until the test commits it. */
    private static OpenTransaction change(UUID home, String assignment) {
        return OpenTransaction.begin(DB.dataSource(), jdbc -> jdbc.update(
                "UPDATE foster_homes SET " + assignment + ", row_version = row_version + 1 WHERE id = ?", home))
                .awaitWork();
    }

    private Map<String, Object> homeRow(UUID id) {
        return jdbc.queryForMap("SELECT name, admin_unit, license_status, capacity, row_version FROM foster_homes "
                + "WHERE id = ?", id);
    }

    private static Path rulesets() {
        try {
            Path directory = Files.createTempDirectory("rulesets-");
            directory.toFile().deleteOnExit();
            Files.writeString(directory.resolve("ohio.yaml"), """
                    jurisdiction: ohio
                    version: "1.0.0"
                    rules:
                      - id: everyone-reads-foster-homes
                        resources: [foster_home]
                        actions: [read]
                        condition: "claims.roles.exists(role, role in ['county_director', 'admin'])"
                      - id: county-director-maintains-licensed-homes-of-own-units
                        resources: [foster_home]
                        actions: [update]
                        condition: >-
                          'county_director' in claims.roles && resource.attrs.admin_unit in claims.admin_units
                          && resource.attrs.license_status == 'ACTIVE'
                    """);
            return directory;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
