package org.caseassignments.api.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.caseassignments.api.policy.Action;
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.policy.ResourceType;
import org.caseassignments.api.security.Caller;
import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Backends;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.OpenTransaction;
import org.caseassignments.api.testsupport.Race;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The update path under forced races. Each race is staged with a second connection: a transaction
 * held open (the projector's reassignment, or a plain row lock) makes the request wait at its locked
 * re-read, which {@code pg_blocking_pids} shows, and the test decides when the other side commits.
 */
@ApiIntegrationTest
@Import(GuardedUpdateIntegrationTests.CountingTransactions.class)
class GuardedUpdateIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    /** Counts transactions the application begins. */
    @TestConfiguration
    static class CountingTransactions {
        static final AtomicInteger BEGUN = new AtomicInteger();

        @Bean
        TransactionExecutionListener transactionCounter() {
            return new TransactionExecutionListener() {
                @Override
                public void beforeBegin(TransactionExecution transaction) {
                    BEGUN.incrementAndGet();
                }
            };
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    PolicyEngine policy;

    @Autowired
    TransactionTemplate transactions;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final Backends backends = new Backends(jdbc);
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldRefuse409WhenAssignmentChangesBetweenPreReadAndLockThenLetOnlyTheNewAssigneeRetry() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-old", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-old").supervisor("s-1").revision(1)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);
        String formerAssignee = TestTokens.caseworker("w-old").token();

        Reply raced;
        try (OpenTransaction reassignment = reassign(caseId, "w-new", "s-1", 2)) {
            raced = Race.commitWhileItWaits(api, backends, reassignment,
                    ApiClient.request("PATCH", "/placements/" + placement)
                            .token(formerAssignee).ifMatch(TestETags.placement(placement, 1)).json("{\"status\": \"ACTIVE\"}"));
        }

        assertThat(raced.status()).as(raced.toString()).isEqualTo(409);
        assertThat(raced.code()).isEqualTo("CONCURRENT_MODIFICATION");
        assertThat(placementRow(placement))
                .containsEntry("status", "PROPOSED")
                .containsEntry("assigned_worker_sub", "w-new")
                .containsEntry("row_version", 2L);

        Reply formerRetry = api.patch("/placements/" + placement, formerAssignee, TestETags.placement(placement, 2),
                "{\"status\": \"ACTIVE\"}");
        assertThat(formerRetry.status()).isEqualTo(403);
        assertThat(formerRetry.body()).isEmpty();

        String newAssignee = TestTokens.caseworker("w-new").token();
        String etag = api.get("/placements/" + placement, newAssignee).etag();
        Reply newRetry = api.patch("/placements/" + placement, newAssignee, etag, "{\"status\": \"ACTIVE\"}");
        assertThat(newRetry.status()).as(newRetry.toString()).isEqualTo(200);
        assertThat(newRetry.etag()).isEqualTo(TestETags.placement(placement, 3));
        assertThat(placementRow(placement)).containsEntry("status", "ACTIVE");
    }

    /**
     * If-Match is the client's precondition, not an authorization control: a client holding the tags
     * of both the version it read and the version the reassignment produces (it read both) may list
     * them. Only the staleness gate stands between the stale decision and the write then.
     */
    /**
     * After a rebuild swap or an undo lowered the case (projection at revision 3, w-new), a row's copy left
     * ahead (revision 7, w-old) is not an authority: the projection row the write holds {@code FOR SHARE} decides.
     */
    @Test
    void shouldAuthorizeAgainstTheProjectionWhenARowsCopyOfTheAssignmentIsAheadOfIt() {
        UUID caseId = Cases.assignedTo(jdbc, "w-new", "s-1", 3);
        UUID placement = Rows.placement(caseId).worker("w-old").supervisor("s-1").revision(7)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);
        UUID option = Rows.kinshipOption(caseId).worker("w-old").supervisor("s-1").revision(7).insert(jdbc);
        String formerAssignee = TestTokens.caseworker("w-old").token();
        String assignee = TestTokens.caseworker("w-new").token();

        Reply formerPatch = api.patch("/placements/" + placement, formerAssignee, TestETags.placement(placement, 1),
                "{\"status\": \"ACTIVE\"}");
        Reply formerRead = api.get("/placements/" + placement, formerAssignee);
        Reply formerDelete = api.delete("/kinship-options/" + option, formerAssignee, TestETags.kinshipOption(option, 1));
        // the copy is ahead of the projection the body shows, so the tag names that assignment (decision 44)
        Reply patch = api.patch("/placements/" + placement, assignee, api.get("/placements/" + placement, assignee).etag(),
                "{\"status\": \"ACTIVE\"}");

        assertThat(formerPatch.status()).as(formerPatch.toString()).isEqualTo(403);
        assertThat(formerRead.status()).as(formerRead.toString()).isEqualTo(403);
        assertThat(formerDelete.status()).as(formerDelete.toString()).isEqualTo(403);
        assertThat(patch.status()).as(patch.toString()).isEqualTo(200);
        assertThat(patch.text("assigned_worker_sub")).isEqualTo("w-new");
        assertThat(jdbc.queryForMap("SELECT assigned_worker_sub, assignment_revision FROM placements WHERE id = ?", placement))
                .as("the write repairs the copy to the projection it was authorized against")
                .containsEntry("assigned_worker_sub", "w-new").containsEntry("assignment_revision", 3L);
    }

    @Test
    void shouldRefuse409EvenWhenIfMatchAlsoListsTheVersionTheReassignmentProduces() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-old", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-old").supervisor("s-1").revision(1)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);

        Reply raced;
        try (OpenTransaction reassignment = reassign(caseId, "w-new", "s-1", 2)) {
            raced = Race.commitWhileItWaits(api, backends, reassignment,
                    ApiClient.request("PATCH", "/placements/" + placement)
                            .token(TestTokens.caseworker("w-old").token()).ifMatch(TestETags.placement(placement, 1) + ", " + TestETags.placement(placement, 2))
                            .json("{\"status\": \"CANCELLED\"}"));
        }

        assertThat(raced.status()).as(raced.toString()).isEqualTo(409);
        assertThat(raced.code()).isEqualTo("CONCURRENT_MODIFICATION");
        assertThat(placementRow(placement)).containsEntry("status", "PROPOSED");
    }

    @Test
    void shouldRefuse409ToASupervisorRacingAReassignmentAndSucceedOnRetry() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID option = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        String supervisor = TestTokens.supervisor("s-1").token();

        Reply raced;
        try (OpenTransaction reassignment = reassign(caseId, "w-2", "s-1", 2)) {
            raced = Race.commitWhileItWaits(api, backends, reassignment,
                    ApiClient.request("PATCH", "/kinship-options/" + option)
                            .token(supervisor).ifMatch(TestETags.kinshipOption(option, 1)).json("{\"approved\": true}"));
        }

        assertThat(raced.status()).as(raced.toString()).isEqualTo(409);
        assertThat(raced.code()).isEqualTo("CONCURRENT_MODIFICATION");
        assertThat(jdbc.queryForObject("SELECT approved FROM kinship_options WHERE id = ?", Boolean.class, option)).isFalse();

        String etag = api.get("/kinship-options/" + option, supervisor).etag();
        Reply retry = api.patch("/kinship-options/" + option, supervisor, etag, "{\"approved\": true}");
        assertThat(retry.status()).as(retry.toString()).isEqualTo(200);
        assertThat(retry.json().path("approved").asBoolean()).isTrue();
    }

    /**
     * ADR-060 D1: the assigned worker stays assigned, only the supervisor moves while the worker's PATCH waits for the
     * row; the pair the decision consumed changed, so the answer is a retriable 409 even though a fresh evaluation
     * allows the worker, and the retry with the new tag succeeds.
     */
    @Test
    void shouldRefuse409ToAWorkerWhoseCaseChangesSupervisorMidFlightAndLetTheRetrySucceed() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        String worker = TestTokens.caseworker("w-1").token();

        Reply raced;
        try (OpenTransaction reassignment = reassign(caseId, "w-1", "s-2", 2)) {
            raced = Race.commitWhileItWaits(api, backends, reassignment,
                    ApiClient.request("PATCH", "/placements/" + placement).token(worker)
                            .ifMatch(TestETags.placement(placement, 1) + ", " + TestETags.placement(placement, 2))
                            .json("{\"start_date\": \"2026-05-01\"}"));
        }

        assertThat(raced.status()).as(raced.toString()).isEqualTo(409);
        assertThat(raced.code()).isEqualTo("CONCURRENT_MODIFICATION");
        Reply retry = api.patch("/placements/" + placement, worker, api.get("/placements/" + placement, worker).etag(),
                "{\"start_date\": \"2026-05-01\"}");
        assertThat(retry.status()).as(retry.toString()).isEqualTo(200);
        assertThat(retry.text("supervisor_sub")).isEqualTo("s-2");
    }

    @Test
    void shouldAnswer404ToAKinshipUpdateRacingItsDeleteAndNeverResurrectTheOption() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID option = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        String worker = TestTokens.caseworker("w-1").token();

        Reply deleted;
        Reply updated;
        try (OpenTransaction holder = lockRow("kinship_options", option)) {
            CompletableFuture<Reply> delete = api.sendAsync(ApiClient.request("DELETE", "/kinship-options/" + option)
                    .token(worker).ifMatch(TestETags.kinshipOption(option, 1)));
            backends.awaitBlockedBy(holder.pid());
            CompletableFuture<Reply> patch = api.sendAsync(ApiClient.request("PATCH", "/kinship-options/" + option)
                    .token(worker).ifMatch(TestETags.kinshipOption(option, 1)).json("{\"relative_name\": \"Resurrected\"}"));
            backends.awaitWaitingForLocks(2);
            holder.commit();
            deleted = delete.get(30, TimeUnit.SECONDS);
            updated = patch.get(30, TimeUnit.SECONDS);
        }

        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(204);
        assertThat(deleted.etag()).isEqualTo(TestETags.kinshipOption(option, 2));
        assertThat(updated.status()).as(updated.toString()).isEqualTo(404);
        assertThat(updated.code()).isEqualTo("NOT_FOUND");
        assertThat(jdbc.queryForMap("SELECT active, relative_name, row_version FROM kinship_options WHERE id = ?", option))
                .containsEntry("active", false)
                .containsEntry("relative_name", "Ada Relative")
                .containsEntry("row_version", 2L);
        assertThat(api.get("/kinship-options/" + option, worker).status()).isEqualTo(404);
    }

    @Test
    void shouldLetExactlyOneOfTwoPatchesWithTheSameIfMatchSucceedAndRefuseTheOther412() throws Exception {
        UUID home = Rows.fosterHome().adminUnit("unit-1").insert(jdbc);
        String admin = TestTokens.admin("a-1").token();

        List<Reply> replies;
        try (OpenTransaction holder = lockRow("foster_homes", home)) {
            CompletableFuture<Reply> first = api.sendAsync(ApiClient.request("PATCH", "/foster-homes/" + home)
                    .token(admin).ifMatch(TestETags.fosterHome(home, 1)).json("{\"name\": \"First\"}"));
            CompletableFuture<Reply> second = api.sendAsync(ApiClient.request("PATCH", "/foster-homes/" + home)
                    .token(admin).ifMatch(TestETags.fosterHome(home, 1)).json("{\"name\": \"Second\"}"));
            backends.awaitWaitingForLocks(2);
            holder.commit();
            replies = List.of(first.get(30, TimeUnit.SECONDS), second.get(30, TimeUnit.SECONDS));
        }

        assertThat(replies).extracting(Reply::status).containsExactlyInAnyOrder(200, 412);
        Reply winner = replies.stream().filter(reply -> reply.status() == 200).findFirst().orElseThrow();
        Reply loser = replies.stream().filter(reply -> reply.status() == 412).findFirst().orElseThrow();
        assertThat(loser.code()).isEqualTo("PRECONDITION_FAILED");
        assertThat(jdbc.queryForMap("SELECT name, row_version FROM foster_homes WHERE id = ?", home))
                .containsEntry("name", winner.text("name"))
                .containsEntry("row_version", 2L);
    }

    @Test
    void shouldAnswerADeniedUpdateWithoutOpeningATransactionOrWaitingForTheRowLock() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);
        String stranger = TestTokens.caseworker("w-stranger").token();

        try (OpenTransaction holder = lockRow("placements", placement)) {
            int begunBefore = CountingTransactions.BEGUN.get();

            Reply denied = api.patch("/placements/" + placement, stranger, TestETags.placement(placement, 1),
                    "{\"status\": \"ACTIVE\"}");

            assertThat(denied.status()).isEqualTo(403);
            assertThat(denied.body()).isEmpty();
            assertThat(CountingTransactions.BEGUN.get()).isEqualTo(begunBefore);
            assertThat(backends.blockedBy(holder.pid())).isEmpty();
            holder.rollback();
        }
    }

    @Test
    void shouldAnswerADeniedCreateWithoutOpeningATransaction() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        int begunBefore = CountingTransactions.BEGUN.get();

        Reply denied = api.post("/cases/" + caseId + "/placements", TestTokens.caseworker("w-stranger").token(), "{}");

        assertThat(denied.status()).isEqualTo(403);
        assertThat(CountingTransactions.BEGUN.get()).isEqualTo(begunBefore);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM placements WHERE case_id = ?", Integer.class, caseId)).isZero();
    }

    @Test
    void shouldRefuseToEvaluateThePolicyInsideATransaction() {
        Caller admin = new Caller("a-1", List.of("admin"), "georgia", List.of());
        ResourceRef home = new ResourceRef(ResourceType.FOSTER_HOME, UUID.randomUUID(), null, null, null,
                Map.of("admin_unit", "unit-1", "license_status", "ACTIVE"), "georgia");
        assertThat(policy.allows(admin, Action.READ, home)).isTrue();

        assertThatThrownBy(() -> transactions.executeWithoutResult(status -> policy.allows(admin, Action.READ, home)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("does not evaluate inside a transaction");
    }

    @Test
    void shouldRefuseTheEmpty403WhenTheCaseMovesToAnotherJurisdictionBetweenPreReadAndLockAndWriteNothing() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);
        String admin = TestTokens.admin("a-1").token();
        String etag = api.get("/placements/" + placement, admin).etag();

        Reply raced;
        try (OpenTransaction transfer = OpenTransaction.begin(DB.dataSource(), jdbc -> new AssignmentWriter(jdbc)
                .apply(List.of(AssignmentUpdate.changed(caseId, "w-1", "s-1", 2).withJurisdiction("texas"))))
                .awaitWork()) {
            raced = Race.commitWhileItWaits(api, backends, transfer,
                    ApiClient.request("PATCH", "/placements/" + placement).token(admin).ifMatch(etag)
                            .json("{\"status\": \"ACTIVE\"}"));
        }

        assertThat(raced.status()).as("as any write to another jurisdiction's record: " + raced).isEqualTo(403);
        assertThat(raced.body()).isEmpty();
        assertThat(placementRow(placement)).as("only the projector's catch-up to revision 2 was written")
                .containsEntry("status", "PROPOSED").containsEntry("row_version", 2L);
        assertThat(api.get("/placements/" + placement, admin).status()).as("now a Texas record").isEqualTo(403);
    }

    /**
     * The supervisor half of the pair: under Texas, a supervisor's decision reads {@code supervisor_sub}, and a
     * reassignment that moves only the supervisor (the worker stays) between pre-read and lock refuses the
     * former supervisor's write. If-Match lists the version the reassignment produces as well, so the refusal is the
     * staleness gate's: without it the write would commit, not fail on 412.
     */
    @Test
    void shouldRefuse409WhenOnlyTheSupervisorChangesBetweenPreReadAndLock() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-old", 1, "texas");
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-old").revision(1).insert(jdbc);
        String formerSupervisor = TestTokens.supervisor("s-old").jurisdiction("texas").token();

        Reply raced;
        try (OpenTransaction reassignment = reassign(caseId, "w-1", "s-new", 2)) {
            raced = Race.commitWhileItWaits(api, backends, reassignment,
                    ApiClient.request("PATCH", "/placements/" + placement).token(formerSupervisor)
                            .ifMatch(TestETags.placement(placement, 1) + ", " + TestETags.placement(placement, 2))
                            .json("{\"status\": \"CANCELLED\"}"));
        }

        assertThat(raced.status()).as(raced.toString()).isEqualTo(409);
        assertThat(raced.code()).isEqualTo("CONCURRENT_MODIFICATION");
        assertThat(raced.body()).contains("supervisor_sub").doesNotContain("assigned_worker_sub");
        assertThat(jdbc.queryForMap("SELECT status, supervisor_sub FROM placements WHERE id = ?", placement))
                .containsEntry("status", "PROPOSED")
                .containsEntry("supervisor_sub", "s-new");
    }

    /** The projector's apply of a reassignment, committed only when the test says so. */
    private static OpenTransaction reassign(UUID caseId, String worker, String supervisor, long revision) {
        return OpenTransaction.begin(DB.dataSource(), jdbc -> new AssignmentWriter(jdbc)
                .apply(List.of(AssignmentUpdate.changed(caseId, worker, supervisor, revision)))).awaitWork();
    }

    /** A row lock held by another transaction, which every writer of the row must wait for. */
    private static OpenTransaction lockRow(String table, UUID id) {
        return OpenTransaction.begin(DB.dataSource(),
                jdbc -> jdbc.queryForList("SELECT id FROM " + table + " WHERE id = ? FOR UPDATE", id)).awaitWork();
    }

    private Map<String, Object> placementRow(UUID id) {
        return jdbc.queryForMap("SELECT status, assigned_worker_sub, row_version FROM placements WHERE id = ?", id);
    }
}
