package org.caseassignments.api.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Backends;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.OpenTransaction;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Case-lock fairness under a forced race: an API write holds a case {@code FOR SHARE} (kept open by a row lock a
 * second connection holds on the row it updates), the projector's apply of a new revision of that case waits for
 * it, and only then does a second API write on the same case arrive: an update or a create, the two paths that
 * hold a case. PostgreSQL lets a new {@code FOR SHARE}
 * locker join the holders while an updater waits, so without the case's queue the second write would get in
 * ahead of the projector, and every write after it too.
 */
@ApiIntegrationTest
class CaseQueueIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final String WORKER = TestTokens.caseworker("w-old").token();

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final Backends backends = new Backends(jdbc);

    @Test
    void shouldHoldAnUpdateArrivingAfterTheProjectorQueuedUntilItsApplyCommitsThenRefuse409() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-old", "s-1", 1);
        UUID second = Rows.kinshipOption(caseId).worker("w-old").supervisor("s-1").revision(1).insert(jdbc);

        Reply refused = arriveWhileTheProjectorIsQueued(caseId, patch(second, WORKER, "Overtaking"));

        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.code()).isEqualTo("CONCURRENT_MODIFICATION");
        assertThat(jdbc.queryForMap("SELECT relative_name, assigned_worker_sub, assignment_revision FROM kinship_options"
                + " WHERE id = ?", second))
                .containsEntry("relative_name", "Ada Relative")
                .containsEntry("assigned_worker_sub", "w-new")
                .containsEntry("assignment_revision", 2L);
    }

    @Test
    void shouldHoldACreateArrivingAfterTheProjectorQueuedUntilItsApplyCommitsThenRefuse409() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-old", "s-1", 1);

        Reply refused = arriveWhileTheProjectorIsQueued(caseId, ApiClient.request("POST",
                "/cases/" + caseId + "/kinship-options").token(WORKER)
                .json("{\"relative_name\": \"Overtaking\", \"relationship\": \"aunt\"}"));

        assertThat(refused.status()).as(refused.toString()).isEqualTo(409);
        assertThat(refused.code()).isEqualTo("CONCURRENT_MODIFICATION");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM kinship_options WHERE relative_name = 'Overtaking'",
                Long.class)).isZero();
    }

    /**
     * Given an update holding the case {@code FOR SHARE} (kept open by its own row's lock) and the projector's
     * apply of revision 2 (w-new) queued behind it, sends {@code arriving}; proves that it waits behind the
     * projector, also once the holding update has committed; then lets the projector commit, and returns the
     * arriving request's answer.
     */
    private Reply arriveWhileTheProjectorIsQueued(UUID caseId, ApiClient.Request arriving) throws Exception {
        UUID first = Rows.kinshipOption(caseId).worker("w-old").supervisor("s-1").revision(1).insert(jdbc);
        ApiClient api = new ApiClient(port);
        try (OpenTransaction rowHolder = lockRow("kinship_options", first)) {
            CompletableFuture<Reply> holding = api.sendAsync(patch(first, WORKER, "Held"));
            backends.awaitBlockedBy(rowHolder.pid());
            try (OpenTransaction apply = OpenTransaction.begin(DB.dataSource(), projector -> new AssignmentWriter(projector)
                    .apply(List.of(AssignmentUpdate.changed(caseId, "w-new", "s-1", 2))))) {
                awaitQueued(apply.pid());

                CompletableFuture<Reply> answer = api.sendAsync(arriving);
                await().atMost(TIMEOUT).alias("the arriving request to answer or to wait behind the projector")
                        .until(() -> answer.isDone() || !backends.blockedBy(apply.pid()).isEmpty());

                assertThat(answer).as("a request arriving after the projector's apply queued answered first: %s",
                        answer.getNow(null)).isNotDone();
                rowHolder.commit();
                assertThat(holding.get(30, TimeUnit.SECONDS).status()).isEqualTo(200);
                apply.awaitWork();
                assertThat(answer).isNotDone();
                assertThat(backends.blockedBy(apply.pid())).isNotEmpty();
                apply.commit();
                assertThat(jdbc.queryForObject("SELECT relative_name FROM kinship_options WHERE id = ?", String.class,
                        first)).isEqualTo("Held");
                return answer.get(30, TimeUnit.SECONDS);
            }
        }
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
