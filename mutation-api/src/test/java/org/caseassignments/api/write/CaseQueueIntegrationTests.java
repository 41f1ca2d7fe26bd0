package org.caseassignments.api.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.Backends;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.OpenTransaction;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestApplication;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Case-lock fairness under a forced race: an API write holds a case {@code FOR SHARE} (kept open by a row lock a
 * second connection holds on the row it updates), the projector's apply of a new revision of that case waits for
 * it, and only then does a second API write on the same case arrive. PostgreSQL lets a new {@code FOR SHARE}
 * locker join the holders while an updater waits, so without the case's queue the second write would get in
 * ahead of the projector, and every write after it too.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class CaseQueueIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        TestApplication.register(registry, DB);
    }

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final Backends backends = new Backends(jdbc);

    @Test
    void shouldHoldAnUpdateArrivingAfterTheProjectorQueuedUntilItsApplyCommitsThenRefuse409() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-old", "s-1", 1);
        UUID first = Rows.kinshipOption(caseId).worker("w-old").supervisor("s-1").revision(1).insert(jdbc);
        UUID second = Rows.kinshipOption(caseId).worker("w-old").supervisor("s-1").revision(1).insert(jdbc);
        String worker = TestTokens.caseworker("w-old").token();
        ApiClient api = new ApiClient(port);

        try (OpenTransaction rowHolder = lockRow("kinship_options", first)) {
            // Given: an update holding the case FOR SHARE, kept open by its own row's lock
            CompletableFuture<Reply> holding = api.sendAsync(patch(first, worker, "Held"));
            backends.awaitBlockedBy(rowHolder.pid());
            try (OpenTransaction apply = OpenTransaction.begin(DB.dataSource(), projector -> new AssignmentWriter(projector)
                    .apply(List.of(AssignmentUpdate.changed(caseId, "w-new", "s-1", 2))))) {
                // and the projector's apply of revision 2 waiting for that update
                awaitQueued(apply.pid());

                // When: another update of the same case arrives
                CompletableFuture<Reply> arriving = api.sendAsync(patch(second, worker, "Overtaking"));
                await().atMost(TIMEOUT).alias("the arriving update to answer or to wait behind the projector")
                        .until(() -> arriving.isDone() || !backends.blockedBy(apply.pid()).isEmpty());

                // Then: it waits behind the projector, and still does once the holding update committed
                assertThat(arriving).as("an update arriving after the projector's apply queued answered first: %s",
                        arriving.getNow(null)).isNotDone();
                rowHolder.commit();
                assertThat(holding.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
                apply.awaitWork();
                assertThat(arriving).isNotDone();
                assertThat(backends.blockedBy(apply.pid())).isNotEmpty();
                apply.commit();

                Reply refused = arriving.get(30, TimeUnit.SECONDS);
                assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
                assertThat(refused.code()).isEqualTo("CONCURRENT_MODIFICATION");
            }
        }
        assertThat(jdbc.queryForMap("SELECT relative_name, assigned_worker_sub, assignment_revision FROM kinship_options"
                + " WHERE id = ?", second))
                .containsEntry("relative_name", "Ada Relative")
                .containsEntry("assigned_worker_sub", "w-new")
                .containsEntry("assignment_revision", 2L);
        assertThat(jdbc.queryForObject("SELECT relative_name FROM kinship_options WHERE id = ?", String.class, first))
                .isEqualTo("Held");
    }

    /**
     * The apply has queued for the case: it waits on the case's queue, or (a writer without one) has waited on the
     * row for over a second, far longer than any first try.
     */
    private void awaitQueued(int pid) {
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(20)).alias("the projector's apply queued for the case")
                .until(() -> Boolean.TRUE.equals(jdbc.queryForObject("""
                        SELECT wait_event_type = 'Lock' AND cardinality(pg_blocking_pids(pid)) > 0
                               AND (wait_event = 'advisory' OR clock_timestamp() - query_start > interval '1 second')
                          FROM pg_stat_activity WHERE pid = ?
                        """, Boolean.class, pid)));
    }

    private static ApiClient.Request patch(UUID option, String token, String name) {
        return ApiClient.request("PATCH", "/kinship-options/" + option).token(token)
                .ifMatch(TestETags.kinshipOption(option, 1)).json("{\"relative_name\": \"" + name + "\"}");
    }

    /** A row lock held by another transaction, which the row's update must wait for. */
    private static OpenTransaction lockRow(String table, UUID id) {
        return OpenTransaction.begin(DB.dataSource(),
                jdbc -> jdbc.queryForList("SELECT id FROM " + table + " WHERE id = ? FOR UPDATE", id)).awaitWork();
    }
}
