package org.caseassignments.api.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Backends;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.OpenTransaction;
import org.caseassignments.api.testsupport.Race;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.store.AdvisoryLocks;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/** Creates with an Idempotency-Key, through HTTP against PostgreSQL, with their races forced by held locks. */
@ApiIntegrationTest
class IdempotencyIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    private static final String KINSHIP = "{\"relative_name\": \"Ada\", \"relationship\": \"aunt\"}";

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    @Autowired
    IdempotencyPurge purge;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final Backends backends = new Backends(jdbc);
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldReplayTheIdenticalAnswerAndCreateNothingWhenACommittedCreateIsRetried() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String key = UUID.randomUUID().toString();
        double replaysBefore = count("replayed");

        Reply first = api.send(kinshipCreate(caseId, "w-1", key, KINSHIP));
        Reply retry = api.send(kinshipCreate(caseId, "w-1", key, "{\"relationship\":\"aunt\",  \"relative_name\":\"Ada\"}"));

        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        assertThat(retry.status()).as(retry.toString()).isEqualTo(201);
        assertThat(retry.body()).isEqualTo(first.body());
        assertThat(retry.header("Location")).isEqualTo(first.header("Location")).isPresent();
        assertThat(retry.etag()).isEqualTo(first.etag());
        assertThat(retry.header("Idempotency-Key-Replayed")).contains("true");
        assertThat(kinshipOptions(caseId)).isEqualTo(1);
        assertThat(count("replayed")).isEqualTo(replaysBefore + 1);
    }

    @Test
    void shouldReplayAFosterHomeCreateInsteadOfRefusingItsLicenseNumberAsADuplicate() {
        String admin = TestTokens.admin("a-1").token();
        String license = "GA-" + UUID.randomUUID();
        String body = "{\"name\": \"Oak House\", \"license_number\": \"" + license + "\", \"admin_unit\": \"unit-1\"}";
        String key = UUID.randomUUID().toString();

        Reply first = api.send(ApiClient.request("POST", "/foster-homes").token(admin).header("Idempotency-Key", key)
                .json(body));
        Reply retry = api.send(ApiClient.request("POST", "/foster-homes").token(admin).header("Idempotency-Key", key)
                .json(body));
        Reply withoutKey = api.post("/foster-homes", admin, body);

        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        assertThat(retry.status()).as(retry.toString()).isEqualTo(201);
        assertThat(retry.body()).isEqualTo(first.body());
        assertThat(retry.header("Location")).isEqualTo(first.header("Location"));
        assertThat(withoutKey.code()).isEqualTo("DUPLICATE_LICENSE_NUMBER");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM foster_homes WHERE license_number = ?", Integer.class,
                license)).isEqualTo(1);
    }

    @Test
    void shouldRefuse422WhenTheKeyIsReusedForADifferentBody() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String key = UUID.randomUUID().toString();

        Reply first = api.send(kinshipCreate(caseId, "w-1", key, KINSHIP));
        Reply reused = api.send(kinshipCreate(caseId, "w-1", key, "{\"relative_name\": \"Bea\", \"relationship\": \"aunt\"}"));
        Reply otherCase = api.send(kinshipCreate(Cases.assignedTo(jdbc, "w-1", "s-1", 1), "w-1", key, KINSHIP));

        assertThat(first.status()).isEqualTo(201);
        assertThat(reused.status()).as(reused.toString()).isEqualTo(422);
        assertThat(reused.code()).isEqualTo("IDEMPOTENCY_KEY_REUSED");
        assertThat(otherCase.status()).as("the path is part of the fingerprint").isEqualTo(422);
        assertThat(kinshipOptions(caseId)).isEqualTo(1);
    }

    @Test
    void shouldScopeTheKeyToTheCallerSoAnotherCallersKeyNeverReplays() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String key = UUID.randomUUID().toString();

        Reply mine = api.send(kinshipCreate(caseId, "w-1", key, KINSHIP));
        Reply theirs = api.send(ApiClient.request("POST", "/cases/" + caseId + "/kinship-options")
                .token(TestTokens.supervisor("s-1").token()).header("Idempotency-Key", key).json(KINSHIP));

        assertThat(mine.status()).isEqualTo(201);
        assertThat(theirs.status()).as(theirs.toString()).isEqualTo(201);
        assertThat(theirs.text("id")).isNotEqualTo(mine.text("id"));
        assertThat(kinshipOptions(caseId)).isEqualTo(2);
    }

    @Test
    void shouldScopeTheKeyToTheCallersJurisdictionSoOneSubjectActingInTwoGetsEachItsOwnCreateAndReplay() {
        UUID texasCase = Cases.assignedTo(jdbc, "w-1", "s-1", 1, "texas");
        UUID georgiaCase = Cases.assignedTo(jdbc, "w-1", "s-1", 1, "georgia");
        String key = UUID.randomUUID().toString();
        ApiClient.Request inTexas = ApiClient.request("POST", "/cases/" + texasCase + "/kinship-options")
                .token(TestTokens.admin("two-states").jurisdiction("texas").token()).header("Idempotency-Key", key)
                .json(KINSHIP);
        ApiClient.Request inGeorgia = ApiClient.request("POST", "/cases/" + georgiaCase + "/kinship-options")
                .token(TestTokens.admin("two-states").jurisdiction("georgia").token()).header("Idempotency-Key", key)
                .json(KINSHIP);

        Reply texas = api.send(inTexas);
        Reply georgia = api.send(inGeorgia);
        Reply texasAgain = api.send(inTexas);
        Reply georgiaAgain = api.send(inGeorgia);

        assertThat(texas.status()).as(texas.toString()).isEqualTo(201);
        assertThat(georgia.status()).as("the same subject and key in another jurisdiction: " + georgia).isEqualTo(201);
        assertThat(texasAgain.body()).isEqualTo(texas.body());
        assertThat(texasAgain.header("Idempotency-Key-Replayed")).contains("true");
        assertThat(georgiaAgain.body()).isEqualTo(georgia.body());
        assertThat(georgiaAgain.header("Idempotency-Key-Replayed")).contains("true");
        assertThat(kinshipOptions(texasCase)).isEqualTo(1);
        assertThat(kinshipOptions(georgiaCase)).isEqualTo(1);
    }

    /**
     * While a create waits in its transaction it holds both its key's claim and its case's place in the queue: the two
     * are advisory locks of distinct namespaces (the two-key form), so no text a caller sends can hash onto a case's
     * queue, whatever the hashes.
     */
    @Test
    void shouldHoldTheKeysClaimAndTheCasesQueueInDistinctAdvisoryLockNamespaces() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID home = Rows.fosterHome().insert(jdbc);
        String key = UUID.randomUUID().toString();

        List<Map<String, Object>> held;
        Reply created;
        try (OpenTransaction homeLock = lockRow("foster_homes", home)) {
            CompletableFuture<Reply> inFlight = api.sendAsync(placementCreate(caseId, key,
                    "{\"foster_home_id\": \"" + home + "\"}"));
            int create = backends.awaitBlockedBy(homeLock.pid()).get(0);
            held = jdbc.queryForList("""
                    SELECT classid::bigint AS namespace, objid::bigint AS key, objsubid, mode FROM pg_locks
                     WHERE pid = ? AND locktype = 'advisory' AND granted ORDER BY classid""", create);
            homeLock.commit();
            created = inFlight.get(30, TimeUnit.SECONDS);
        }

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(held).as("two-key advisory locks: the key's claim (exclusive) and the case's queue (shared)")
                .extracting(lock -> lock.get("objsubid"), lock -> lock.get("mode"))
                .containsExactlyInAnyOrder(tuple(2, "ExclusiveLock"), tuple(2, "ShareLock"));
        assertThat(held).extracting(lock -> lock.get("namespace")).containsExactly(
                (long) AdvisoryLocks.CASE_QUEUE.namespace(), (long) AdvisoryLocks.IDEMPOTENCY_KEY.namespace());
    }

    /**
     * A key chosen so that the hash of its scope equals a case's queue key (found by a birthday search over fixed
     * candidates, so the same pair every run) is claimed at once while the projector holds that case's queue.
     */
    @Test
    void shouldClaimAKeyWhoseHashEqualsACasesQueueKeyWhileTheProjectorHoldsThatQueue() throws Exception {
        Map<String, Object> collision = jdbc.queryForMap("""
                WITH cases AS (SELECT md5('case-' || g)::uuid AS case_id FROM generate_series(1, 200000) AS g),
                     keys AS (SELECT 'key-' || g AS key FROM generate_series(1, 200000) AS g)
                SELECT c.case_id, k.key FROM cases c
                  JOIN keys k ON hashtext(c.case_id::text)
                               = hashtext(concat_ws(chr(10), 'collider', 'georgia', 'POST /foster-homes', k.key))
                 ORDER BY k.key LIMIT 1""");
        UUID caseId = (UUID) collision.get("case_id");
        String key = (String) collision.get("key");
        Rows.assignment(caseId).worker("w-1").supervisor("s-1").revision(1).jurisdiction("georgia").insert(jdbc);

        Reply created;
        try (OpenTransaction projector = OpenTransaction.begin(DB.dataSource(), other -> other.queryForList(
                "SELECT pg_advisory_xact_lock(" + AdvisoryLocks.CASE_QUEUE.on("?::text") + ")", caseId.toString()))
                .awaitWork()) {
            created = api.send(ApiClient.request("POST", "/foster-homes").token(TestTokens.admin("collider").token())
                    .header("Idempotency-Key", key).json("{\"name\": \"Oak House\", \"license_number\": \"LIC-"
                            + UUID.randomUUID() + "\", \"admin_unit\": \"unit-1\"}"));
            assertThat(backends.blockedBy(projector.pid())).as("nothing waits for the case's queue").isEmpty();
        }

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
    }

    @Test
    void shouldAnswer409InUseToASecondRequestWhileTheFirstWithTheKeyIsInFlightAndCreateOneRow() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID home = Rows.fosterHome().insert(jdbc);
        String key = UUID.randomUUID().toString();
        String body = "{\"foster_home_id\": \"" + home + "\"}";

        Reply first;
        Reply second;
        try (OpenTransaction homeLock = lockRow("foster_homes", home)) {
            // The first create has claimed the key and waits in its insert's foreign-key check on the home.
            CompletableFuture<Reply> inFlight = api.sendAsync(placementCreate(caseId, key, body));
            backends.awaitBlockedBy(homeLock.pid());

            second = api.send(placementCreate(caseId, key, body));

            homeLock.commit();
            first = inFlight.get(30, TimeUnit.SECONDS);
        }
        Reply retry = api.send(placementCreate(caseId, key, body));

        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        assertThat(second.status()).as(second.toString()).isEqualTo(409);
        assertThat(second.code()).isEqualTo("IDEMPOTENCY_KEY_IN_USE");
        assertThat(retry.status()).as(retry.toString()).isEqualTo(201);
        assertThat(retry.body()).isEqualTo(first.body());
        assertThat(jdbc.queryForObject("SELECT count(*) FROM placements WHERE case_id = ?", Integer.class, caseId))
                .isEqualTo(1);
    }

    @Test
    void shouldAnswerAsTheCommittedRecordAndCreateNothingWhenTheKeyCommitsAfterTheClaimLookedUp() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String key = UUID.randomUUID().toString();

        Reply reply;
        // A record of the key inserted, not yet committed, by a transaction the claim's look-up cannot see:
        // the create's own record then waits on it, and fails on the primary key once it commits.
        try (OpenTransaction other = OpenTransaction.begin(DB.dataSource(), jdbc -> jdbc.update("""
                INSERT INTO idempotency_keys (caller_sub, caller_jurisdiction, endpoint, idempotency_key, fingerprint, status)
                VALUES ('w-1', 'georgia', 'POST /cases/{caseId}/kinship-options', ?, '\\x00'::bytea, 201)""", key))
                .awaitWork()) {
            CompletableFuture<Reply> create = api.sendAsync(kinshipCreate(caseId, "w-1", key, KINSHIP));
            backends.awaitBlockedBy(other.pid());
            other.commit();
            reply = create.get(30, TimeUnit.SECONDS);
        }

        assertThat(reply.status()).as(reply.toString()).isEqualTo(422);
        assertThat(reply.code()).isEqualTo("IDEMPOTENCY_KEY_REUSED");
        assertThat(kinshipOptions(caseId)).isZero();
    }

    @Test
    void shouldLetARetryWithTheSameKeySucceedAfterTheCreateLostTheForShareRace() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String key = UUID.randomUUID().toString();
        ApiClient.Request create = ApiClient.request("POST", "/cases/" + caseId + "/kinship-options")
                .token(TestTokens.admin("a-1").token()).header("Idempotency-Key", key).json(KINSHIP);

        Reply raced;
        try (OpenTransaction reassignment = OpenTransaction.begin(DB.dataSource(), jdbc -> new AssignmentWriter(jdbc)
                .apply(List.of(AssignmentUpdate.changed(caseId, "w-2", "s-1", 2)))).awaitWork()) {
            raced = Race.commitWhileItWaits(api, backends, reassignment, create);
        }
        Reply retry = api.send(create);

        assertThat(raced.status()).as(raced.toString()).isEqualTo(409);
        assertThat(raced.code()).isEqualTo("CONCURRENT_MODIFICATION");
        assertThat(retry.status()).as(retry.toString()).isEqualTo(201);
        assertThat(retry.text("assigned_worker_sub")).isEqualTo("w-2");
        assertThat(kinshipOptions(caseId)).isEqualTo(1);
    }

    @Test
    void shouldRefuseAnEmpty403ReplayToACallerWhoMayNoLongerReadTheCreatedRecord() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String key = UUID.randomUUID().toString();
        Reply first = api.send(kinshipCreate(caseId, "w-1", key, KINSHIP));
        // The projector reassigns the case: its rows are the new assignee's now.
        new AssignmentWriter(jdbc).apply(List.of(AssignmentUpdate.changed(caseId, "w-2", "s-1", 2)));

        Reply replay = api.send(kinshipCreate(caseId, "w-1", key, KINSHIP));

        assertThat(first.status()).isEqualTo(201);
        assertThat(replay.status()).as(replay.toString()).isEqualTo(403);
        assertThat(replay.body()).isEmpty();
    }

    @Test
    void shouldRefuse400NamingTheHeaderWhenTheKeyIsNotOneToTwoHundredFiftyFiveVisibleAsciiCharacters() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);

        for (String key : List.of("with space", "a".repeat(256), "")) {
            Reply refused = api.send(kinshipCreate(caseId, "w-1", key, KINSHIP));

            assertThat(refused.status()).as(key + ": " + refused).isEqualTo(400);
            assertThat(refused.code()).isEqualTo("VALIDATION_FAILED");
            assertThat(refused.json().path("errors").get(0).path("field").asString()).isEqualTo("Idempotency-Key");
        }
        assertThat(api.send(kinshipCreate(caseId, "w-1", "a".repeat(255), KINSHIP)).status()).isEqualTo(201);
        assertThat(kinshipOptions(caseId)).isEqualTo(1);
    }

    @Test
    void shouldPurgeKeysOlderThanTheRetentionAndKeepYoungerOnes() {
        String old = UUID.randomUUID().toString();
        String young = UUID.randomUUID().toString();
        for (String key : List.of(old, young)) {
            jdbc.update("INSERT INTO idempotency_keys (caller_sub, caller_jurisdiction, endpoint, idempotency_key, "
                    + "fingerprint) VALUES ('w-9', 'georgia', 'POST /foster-homes', ?, '\\x00')", key);
        }
        jdbc.update("UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE idempotency_key = ?", old);

        purge.purge();

        assertThat(jdbc.queryForList("SELECT idempotency_key FROM idempotency_keys WHERE idempotency_key IN (?, ?)",
                String.class, old, young)).containsExactly(young);
    }

    private ApiClient.Request kinshipCreate(UUID caseId, String worker, String key, String body) {
        return ApiClient.request("POST", "/cases/" + caseId + "/kinship-options")
                .token(TestTokens.caseworker(worker).token()).header("Idempotency-Key", key).json(body);
    }

    private ApiClient.Request placementCreate(UUID caseId, String key, String body) {
        return ApiClient.request("POST", "/cases/" + caseId + "/placements")
                .token(TestTokens.caseworker("w-1").token()).header("Idempotency-Key", key).json(body);
    }

    private int kinshipOptions(UUID caseId) {
        return jdbc.queryForObject("SELECT count(*) FROM kinship_options WHERE case_id = ?", Integer.class, caseId);
    }

    private double count(String outcome) {
        return meters.counter(Idempotency.METRIC, "outcome", outcome).count();
    }

    private static OpenTransaction lockRow(String table, UUID id) {
        return OpenTransaction.begin(DB.dataSource(),
                jdbc -> jdbc.queryForList("SELECT id FROM " + table + " WHERE id = ? FOR UPDATE", id)).awaitWork();
    }
}
