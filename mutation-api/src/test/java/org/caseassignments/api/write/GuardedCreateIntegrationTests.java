package org.caseassignments.api.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Backends;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.OpenTransaction;
import org.caseassignments.api.testsupport.Race;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The create path under forced races with the projector. To hold a create inside its transaction
 * after it took {@code FOR SHARE} on the projection row, the test locks the foster home the new
 * placement references: the insert's foreign-key check waits for that lock, which
 * {@code pg_blocking_pids} shows, and the test releases it when the projector's apply is waiting too.
 */
@ApiIntegrationTest
class GuardedCreateIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

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
    void shouldRefuse409WhenAReassignmentCommitsBetweenTheProjectionReadAndForShare() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);

        Reply raced;
        try (OpenTransaction reassignment = projectorApply(AssignmentUpdate.changed(caseId, "w-2", "s-1", 2)).awaitWork()) {
            raced = Race.commitWhileItWaits(api, backends, reassignment,
                    ApiClient.request("POST", "/cases/" + caseId + "/kinship-options")
                            .token(TestTokens.caseworker("w-1").token())
                            .json("{\"relative_name\": \"Ada\", \"relationship\": \"aunt\"}"));
        }

        assertThat(raced.status()).as(raced.toString()).isEqualTo(409);
        assertThat(raced.code()).isEqualTo("CONCURRENT_MODIFICATION");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM kinship_options WHERE case_id = ?", Integer.class, caseId))
                .isZero();
    }

    /**
     * The supervisor half on the create path: under Texas a supervisor's create reads {@code supervisor_sub}, and a
     * reassignment that moves only the supervisor between the projection read and {@code FOR SHARE} refuses the
     * former supervisor's create.
     */
    @Test
    void shouldRefuse409WhenOnlyTheSupervisorChangesBetweenTheProjectionReadAndForShare() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-old", 1, "texas");

        Reply raced;
        try (OpenTransaction reassignment = projectorApply(AssignmentUpdate.changed(caseId, "w-1", "s-new", 2)).awaitWork()) {
            raced = Race.commitWhileItWaits(api, backends, reassignment,
                    ApiClient.request("POST", "/cases/" + caseId + "/kinship-options")
                            .token(TestTokens.supervisor("s-old").jurisdiction("texas").token())
                            .json("{\"relative_name\": \"Ada\", \"relationship\": \"aunt\"}"));
        }

        assertThat(raced.status()).as(raced.toString()).isEqualTo(409);
        assertThat(raced.code()).isEqualTo("CONCURRENT_MODIFICATION");
        assertThat(raced.body()).contains("supervisor_sub");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM kinship_options WHERE case_id = ?", Integer.class, caseId))
                .isZero();
    }

    @Test
    void shouldMakeTheProjectorsApplyWaitForACreateHoldingForShareThenBringTheCreatedRowAlong() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID home = Rows.fosterHome().insert(jdbc);

        Reply created;
        try (OpenTransaction homeLock = lockRow("foster_homes", home)) {
            CompletableFuture<Reply> create = api.sendAsync(ApiClient.request("POST", "/cases/" + caseId + "/placements")
                    .token(TestTokens.caseworker("w-1").token())
                    .json("{\"foster_home_id\": \"" + home + "\"}"));
            int createPid = backends.awaitBlockedBy(homeLock.pid()).get(0);
            try (OpenTransaction apply = projectorApply(AssignmentUpdate.changed(caseId, "w-2", "s-2", 2))) {
                assertThat(backends.awaitBlockedBy(createPid)).contains(apply.pid());

                homeLock.commit();
                created = create.get(30, TimeUnit.SECONDS);
                apply.awaitWork().commit();
            }
        }

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.text("assigned_worker_sub")).isEqualTo("w-1");
        assertThat(created.json().path("assignment_revision").asLong()).isEqualTo(1);
        UUID placement = UUID.fromString(created.text("id"));
        assertThat(jdbc.queryForMap("SELECT assigned_worker_sub, supervisor_sub, assignment_revision FROM placements "
                + "WHERE id = ?", placement))
                .isEqualTo(Map.of("assigned_worker_sub", "w-2", "supervisor_sub", "s-2", "assignment_revision", 2L));
    }

    @Test
    void shouldRefuseTheEmpty403WhenTheCaseMovesToAnotherJurisdictionBetweenTheProjectionReadAndForShare() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);

        Reply raced;
        try (OpenTransaction transfer = projectorApply(AssignmentUpdate.changed(caseId, "w-1", "s-1", 2)
                .withJurisdiction("texas")).awaitWork()) {
            raced = Race.commitWhileItWaits(api, backends, transfer,
                    ApiClient.request("POST", "/cases/" + caseId + "/placements")
                            .token(TestTokens.admin("a-1").token())
                            .json("{}"));
        }

        assertThat(raced.status()).as("as any write to another jurisdiction's record: " + raced).isEqualTo(403);
        assertThat(raced.body()).isEmpty();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM placements WHERE case_id = ?", Integer.class, caseId))
                .isZero();
    }

    @Test
    void shouldRefuseEveryCreateOnACaseWhoseJurisdictionIsNotKnownAndWriteNothing() {
        UUID notProjectedYet = UUID.randomUUID();
        UUID legacy = Cases.assignedTo(jdbc, "w-1", "s-1", 1, null);

        for (UUID caseId : List.of(notProjectedYet, legacy)) {
            for (String token : List.of(TestTokens.admin("a-1").token(), TestTokens.caseworker("w-1").token(),
                    TestTokens.admin("a-1").jurisdiction("texas").token())) {
                Reply created = api.post("/cases/" + caseId + "/placements", token, "{}");

                assertThat(created.status()).as(created.toString()).isEqualTo(403);
            }
        }
        assertThat(jdbc.queryForObject("SELECT count(*) FROM placements WHERE case_id IN (?, ?)", Integer.class,
                notProjectedYet, legacy)).isZero();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignments WHERE case_id = ?", Integer.class,
                notProjectedYet)).as("no placeholder is written for a create that is refused").isZero();
    }

    /** The projector's apply in its own transaction, committed when the test says so; it may block at once. */
    private static OpenTransaction projectorApply(AssignmentUpdate update) {
        return OpenTransaction.begin(DB.dataSource(), jdbc -> new AssignmentWriter(jdbc).apply(List.of(update)));
    }

    private static OpenTransaction lockRow(String table, UUID id) {
        return OpenTransaction.begin(DB.dataSource(),
                jdbc -> jdbc.queryForList("SELECT id FROM " + table + " WHERE id = ? FOR UPDATE", id)).awaitWork();
    }
}
