package org.caseassignments.api.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

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
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Every write path leaves exactly one record, in the write's own transaction (the record's {@code xmin}
 * is the written row's), naming the ruleset version, the rule, the assignment under the lock and the row
 * versions; a write that rolls back leaves none, and a record that cannot be inserted rolls the write
 * back; refusals are recorded by the refusal writer. The trace of the event that set the assignment a write held
 * reaches its record and the problem document of a refusal about that assignment.
 */
@ApiIntegrationTest
class AuditTrailIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String REASSIGNMENT_TRACE = "0af7651916cd43dd8448eb211c80319c";
    static final String TRANSFER_TRACE = "5c6dd2b5e1a7463aa1b2c3d4e5f60718";

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
    void shouldRecordAPlacementCreateInItsTransactionWithTheAssignmentHeldForShare() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 7);
        String token = TestTokens.caseworker("w-1").token();

        Reply created = api.send(ApiClient.request("POST", "/cases/" + caseId + "/placements").token(token)
                .header("X-Request-Id", "req-create-1").json("{}"));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        UUID id = UUID.fromString(created.text("id"));
        Map<String, Object> record = onlyRecordOf(id);
        assertThat(record)
                .containsEntry("outcome", "WRITTEN").containsEntry("status", 201)
                .containsEntry("request_id", "req-create-1")
                .containsEntry("caller_sub", "w-1").containsEntry("jurisdiction", "georgia")
                .containsEntry("action", "create").containsEntry("resource_type", "placement")
                .containsEntry("case_id", caseId)
                .containsEntry("ruleset_jurisdiction", "georgia").containsEntry("ruleset_version", "1.3.0")
                .containsEntry("rule_id", "caseworker-assigned")
                .containsEntry("assignment_revision", 7L)
                .containsEntry("assigned_worker_sub", "w-1").containsEntry("supervisor_sub", "s-1")
                .containsEntry("row_version_after", 1L);
        assertThat(record.get("row_version_before")).isNull();
        assertThat(record.get("problem_code")).isNull();
        assertThat(record.get("roles")).isEqualTo("{caseworker}");
        assertSameTransaction("placements", id);
    }

    @Test
    void shouldRecordAPlacementUpdateWithTheLockedAssignmentAndBothVersions() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 3);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(3)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);

        Reply updated = api.patch("/placements/" + placement, TestTokens.supervisor("s-1").token(),
                TestETags.placement(placement, 1), "{\"status\": \"ACTIVE\"}");

        assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
        Map<String, Object> record = onlyRecordOf(placement);
        assertThat(record)
                .containsEntry("outcome", "WRITTEN").containsEntry("status", 200)
                .containsEntry("caller_sub", "s-1").containsEntry("action", "update")
                .containsEntry("resource_type", "placement").containsEntry("case_id", caseId)
                .containsEntry("ruleset_version", "1.3.0")
                .containsEntry("rule_id", "supervisor-admin-service-case-records")
                .containsEntry("after_rule_id", "supervisor-admin-service-case-records")
                .containsEntry("assignment_revision", 3L)
                .containsEntry("assigned_worker_sub", "w-1").containsEntry("supervisor_sub", "s-1")
                .containsEntry("row_version_before", 1L).containsEntry("row_version_after", 2L);
        assertThat(record.get("request_id")).isEqualTo(updated.header("X-Request-Id").orElseThrow());
        assertSameTransaction("placements", placement);
    }

    @Test
    void shouldRecordKinshipCreateUpdateAndDeleteOnceEach() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String token = TestTokens.caseworker("w-1").token();

        Reply created = api.post("/cases/" + caseId + "/kinship-options", token,
                "{\"relative_name\": \"Ann\", \"relationship\": \"aunt\"}");
        UUID option = UUID.fromString(created.text("id"));
        assertThat(onlyRecordOf(option)).containsEntry("action", "create").containsEntry("row_version_after", 1L);
        assertSameTransaction("kinship_options", option);

        Reply updated = api.patch("/kinship-options/" + option, token, created.etag(), "{\"approved\": true}");
        assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
        assertThat(recordsOf(option)).hasSize(2);
        assertThat(latestRecordOf(option)).containsEntry("action", "update")
                .containsEntry("after_rule_id", "caseworker-assigned")
                .containsEntry("row_version_before", 1L).containsEntry("row_version_after", 2L);
        assertSameTransaction("kinship_options", option);

        Reply deleted = api.delete("/kinship-options/" + option, token, updated.etag());
        assertThat(deleted.status()).as(deleted.toString()).isEqualTo(204);
        assertThat(recordsOf(option)).hasSize(3);
        Map<String, Object> deletion = latestRecordOf(option);
        assertThat(deletion).containsEntry("action", "delete").containsEntry("status", 204)
                .containsEntry("rule_id", "caseworker-assigned")
                .containsEntry("row_version_before", 2L).containsEntry("row_version_after", 3L);
        assertThat(deletion.get("after_rule_id")).as("a delete changes no policy-visible input").isNull();
        assertSameTransaction("kinship_options", option);
    }

    @Test
    void shouldRecordFosterHomeCreateAndUpdateWithoutAnAssignment() {
        String admin = TestTokens.admin("a-1").token();

        Reply created = api.post("/foster-homes", admin,
                "{\"name\": \"Oak\", \"license_number\": \"L-audit-1\", \"admin_unit\": \"unit-1\"}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        UUID home = UUID.fromString(created.text("id"));
        assertThat(onlyRecordOf(home)).containsEntry("action", "create").containsEntry("resource_type", "foster_home")
                .containsEntry("rule_id", "admin-supervisor-service-maintain-foster-homes");
        assertThat(onlyRecordOf(home).get("assignment_revision")).isNull();
        assertSameTransaction("foster_homes", home);

        Reply updated = api.patch("/foster-homes/" + home, admin, created.etag(), "{\"capacity\": 3}");
        assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
        assertThat(latestRecordOf(home)).containsEntry("action", "update")
                .containsEntry("row_version_before", 1L).containsEntry("row_version_after", 2L);
        assertThat(recordsOf(home)).hasSize(2);
        assertSameTransaction("foster_homes", home);
    }

    @Test
    void shouldLeaveNoRecordWhenTheWriteRollsBack() {
        String admin = TestTokens.admin("a-dup").token();
        Rows.fosterHome().licenseNumber("L-taken").insert(jdbc);
        long before = count();

        Reply duplicate = api.post("/foster-homes", admin,
                "{\"name\": \"Elm\", \"license_number\": \"L-taken\", \"admin_unit\": \"unit-1\"}");

        assertThat(duplicate.status()).as(duplicate.toString()).isEqualTo(409);
        assertThat(duplicate.code()).isEqualTo("DUPLICATE_LICENSE_NUMBER");
        assertThat(count()).isEqualTo(before);
    }

    /** No partition for this month: the record cannot be inserted, so the update it records is not made either. */
    @Test
    void shouldRollTheWriteBackWhenItsRecordCannotBeInserted() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);
        String partition = jdbc.queryForObject("""
                SELECT 'audit_records_' || to_char(now() AT TIME ZONE 'UTC', '"y"YYYY"m"MM')""", String.class);

        jdbc.execute("ALTER TABLE audit_records DETACH PARTITION " + partition);
        Reply refused;
        try {
            refused = api.patch("/placements/" + placement, TestTokens.caseworker("w-1").token(),
                    TestETags.placement(placement, 1), "{\"status\": \"ACTIVE\"}");
        } finally {
            jdbc.execute("ALTER TABLE audit_records ATTACH PARTITION " + partition + " FOR VALUES FROM " + thisMonth());
        }

        assertThat(refused.status()).as(refused.toString()).isEqualTo(500);
        assertThat(jdbc.queryForMap("SELECT status, row_version FROM placements WHERE id = ?", placement))
                .containsEntry("status", "PROPOSED").containsEntry("row_version", 1L);
        assertThat(recordsOf(placement)).isEmpty();
    }

    @Test
    void shouldRecordA403WithTheDenyingRulesetAndNoWrite() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);

        Reply denied = api.patch("/placements/" + placement, TestTokens.caseworker("w-stranger").token(),
                TestETags.placement(placement, 1), "{\"status\": \"ACTIVE\"}");

        assertThat(denied.status()).isEqualTo(403);
        Map<String, Object> record = awaitOnlyRecordOf(placement);
        assertThat(record).containsEntry("outcome", "REFUSED").containsEntry("status", 403)
                .containsEntry("caller_sub", "w-stranger").containsEntry("action", "update")
                .containsEntry("ruleset_version", "1.3.0").containsEntry("row_version_before", 1L);
        assertThat(record.get("rule_id")).isNull();
        assertThat(record.get("row_version_after")).isNull();
        assertThat(record.get("request_id")).isEqualTo(denied.header("X-Request-Id").orElseThrow());
    }

    /** The record is the Texas auditor's to read: it may hold what the Texas caller sent, nothing of the Georgia row. */
    @Test
    void shouldStoreOnlyWhatTheCallerSentWhenTheRecordIsAnotherJurisdictions() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).rowVersion(7).insert(jdbc);
        UUID home = Rows.fosterHome().insert(jdbc);
        String texasAdmin = TestTokens.admin("tx-admin").jurisdiction("texas").token();

        Reply patch = api.patch("/placements/" + placement, texasAdmin, TestETags.placement(placement, 7), "{\"status\": \"ACTIVE\"}");
        Reply homePatch = api.patch("/foster-homes/" + home, texasAdmin, TestETags.fosterHome(home, 1), "{\"name\": \"Elm\"}");

        assertThat(patch.status()).isEqualTo(403);
        assertThat(homePatch.status()).isEqualTo(403);
        for (UUID probed : List.of(placement, home)) {
            Map<String, Object> record = awaitOnlyRecordOf(probed);
            assertThat(record).containsEntry("outcome", "REFUSED").containsEntry("status", 403)
                    .containsEntry("jurisdiction", "texas").containsEntry("caller_sub", "tx-admin");
            assertThat(record.get("case_id")).as("the Georgia row's case, which the caller did not send").isNull();
            assertThat(record.get("row_version_before")).as("the Georgia row's version").isNull();
            assertThat(record.get("ruleset_version")).isNull();
        }
    }

    @Test
    void shouldKeepTheCaseTheCallerNamedWhenACreateIsRefusedForAnotherJurisdiction() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);

        Reply denied = api.post("/cases/" + caseId + "/placements", TestTokens.admin("tx-creator").jurisdiction("texas").token(), "{}");

        assertThat(denied.status()).isEqualTo(403);
        Map<String, Object> record = await().atMost(Duration.ofSeconds(20)).until(() -> jdbc.queryForList(
                "SELECT * FROM audit_records WHERE caller_sub = 'tx-creator'"), rows -> rows.size() == 1).get(0);
        assertThat(record).containsEntry("case_id", caseId).containsEntry("jurisdiction", "texas");
        assertThat(record.get("resource_id")).isNull();
        assertThat(record.get("row_version_before")).isNull();
    }

    @Test
    void shouldRecordA412() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).rowVersion(2).insert(jdbc);

        Reply stale = api.patch("/placements/" + placement, TestTokens.caseworker("w-1").token(),
                TestETags.placement(placement, 1), "{\"status\": \"ACTIVE\"}");

        assertThat(stale.status()).isEqualTo(412);
        assertThat(awaitOnlyRecordOf(placement)).containsEntry("outcome", "REFUSED").containsEntry("status", 412)
                .containsEntry("problem_code", "PRECONDITION_FAILED").containsEntry("rule_id", "caseworker-assigned")
                .containsEntry("row_version_before", 2L);
    }

    @Test
    void shouldRecordA409WhenTheAssignmentChangesUnderTheRequest() {
        UUID caseId = Cases.assignedTo(jdbc, "w-old", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-old").supervisor("s-1").revision(1)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);

        Reply raced;
        try (OpenTransaction reassignment = OpenTransaction.begin(DB.dataSource(), other -> new AssignmentWriter(other)
                .apply(List.of(AssignmentUpdate.changed(caseId, "w-new", "s-1", 2)))).awaitWork()) {
            raced = Race.commitWhileItWaits(api, backends, reassignment,
                    ApiClient.request("PATCH", "/placements/" + placement)
                            .token(TestTokens.caseworker("w-old").token())
                            .ifMatch(TestETags.placement(placement, 1)).json("{\"status\": \"ACTIVE\"}"));
        }

        assertThat(raced.status()).as(raced.toString()).isEqualTo(409);
        assertThat(awaitOnlyRecordOf(placement)).containsEntry("outcome", "REFUSED").containsEntry("status", 409)
                .containsEntry("problem_code", "CONCURRENT_MODIFICATION").containsEntry("caller_sub", "w-old");
    }

    @Test
    void shouldRecordA403OnACreateWithoutAResourceId() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);

        Reply denied = api.post("/cases/" + caseId + "/placements", TestTokens.caseworker("w-nobody").token(), "{}");

        assertThat(denied.status()).isEqualTo(403);
        Map<String, Object> record = await().atMost(Duration.ofSeconds(20)).until(() -> jdbc.queryForList(
                "SELECT * FROM audit_records WHERE case_id = ? AND caller_sub = 'w-nobody'", caseId), rows -> rows.size() == 1)
                .get(0);
        assertThat(record).containsEntry("outcome", "REFUSED").containsEntry("action", "create")
                .containsEntry("status", 403);
        assertThat(record.get("resource_id")).isNull();
    }

    // The upstream trace of the event that set the assignment a write held FOR SHARE (decision 34)

    @Test
    void shouldRecordTheTraceOfTheEventThatSetTheAssignmentACreateHeld() {
        UUID caseId = tracedCase("w-1", "s-1", TRACE);

        Reply created = api.send(ApiClient.request("POST", "/cases/" + caseId + "/placements")
                .token(TestTokens.caseworker("w-1").token()).header("X-Request-Id", "trace-create-1").json("{}"));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(onlyRecordOf(UUID.fromString(created.text("id"))))
                .containsEntry("request_id", "trace-create-1").containsEntry("assignment_trace_id", TRACE);
    }

    @Test
    void shouldRecordTheTraceOfTheEventThatSetTheAssignmentAnUpdateHeld() {
        UUID caseId = tracedCase("w-1", "s-1", TRACE);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(2)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);

        Reply updated = api.patch("/placements/" + placement, TestTokens.supervisor("s-1").token(),
                TestETags.placement(placement, 1), "{\"status\": \"ACTIVE\"}");

        assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
        assertThat(onlyRecordOf(placement)).containsEntry("assignment_trace_id", TRACE);
    }

    @Test
    void shouldRecordNoTraceWhenTheEventCarriedNone() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);

        Reply created = api.post("/cases/" + caseId + "/placements", TestTokens.caseworker("w-1").token(), "{}");

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        Map<String, Object> record = onlyRecordOf(UUID.fromString(created.text("id")));
        assertThat(record.get("assignment_trace_id")).isNull();
        assertThat(record.get("request_id")).isEqualTo(created.header("X-Request-Id").orElseThrow());
    }

    @Test
    void shouldNameTheReassignmentsTraceInThe409AndItsRecordWhenTheAssignmentChangesUnderTheRequest() {
        // Given a placement of a case whose assignment an event with a trace is about to change
        UUID caseId = tracedCase("w-old", "s-1", TRACE);
        UUID placement = Rows.placement(caseId).worker("w-old").supervisor("s-1").revision(2)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);

        // When the reassignment commits while the update waits for the case's row
        Reply raced;
        try (OpenTransaction reassignment = OpenTransaction.begin(DB.dataSource(), other -> new AssignmentWriter(other)
                .apply(List.of(AssignmentUpdate.changed(caseId, "w-new", "s-1", 3).withTraceId(REASSIGNMENT_TRACE))))
                .awaitWork()) {
            raced = Race.commitWhileItWaits(api, backends, reassignment,
                    ApiClient.request("PATCH", "/placements/" + placement)
                            .token(TestTokens.caseworker("w-old").token()).header("X-Request-Id", "trace-409-1")
                            .ifMatch(TestETags.placement(placement, 1)).json("{\"status\": \"ACTIVE\"}"));
        }

        // Then the 409 names the event that changed it, and so does the refusal's record
        assertThat(raced.status()).as(raced.toString()).isEqualTo(409);
        assertThat(raced.code()).isEqualTo("CONCURRENT_MODIFICATION");
        assertThat(raced.text("assignment_trace_id")).isEqualTo(REASSIGNMENT_TRACE);
        assertThat(raced.text("request_id")).isEqualTo("trace-409-1");
        assertThat(awaitOnlyRecordOf(placement)).containsEntry("status", 409).containsEntry("request_id", "trace-409-1")
                .containsEntry("assignment_trace_id", REASSIGNMENT_TRACE);
    }

    /**
     * A case that moves to another jurisdiction while a write authorized in the first waits for its row: the write
     * then holds another jurisdiction's row, and is answered and recorded exactly as a write to any record of another
     * jurisdiction (decision 34, amended): the empty 403, whose record holds only what the caller sent, with no trace,
     * revision or case of the transfer — on the update path and on the create path alike.
     */
    @Test
    void shouldAnswerTheEmpty403AndRecordNothingOfTheTransferWhenTheCaseMovesToAnotherJurisdictionUnderTheRequest() {
        // Given a placement of a Georgia case, and another Georgia case, each about to move to Texas by a traced event
        UUID updated = tracedCase("w-1", "s-1", TRACE);
        UUID placement = Rows.placement(updated).worker("w-1").supervisor("s-1").revision(2)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);
        UUID createdUnder = tracedCase("w-1", "s-1", TRACE);
        String admin = TestTokens.admin("ga-transfer-race").token();

        // When each transfer commits while a Georgia admin's write waits for the case's row
        Reply update = raceTransfer(updated, ApiClient.request("PATCH", "/placements/" + placement).token(admin)
                .header("X-Request-Id", "transfer-403-update").ifMatch(TestETags.placement(placement, 1))
                .json("{\"status\": \"ACTIVE\"}"));
        Reply create = raceTransfer(createdUnder, ApiClient.request("POST", "/cases/" + createdUnder + "/placements")
                .token(admin).header("X-Request-Id", "transfer-403-create").json("{}"));

        // Then both are the empty 403 of another jurisdiction's record, with nothing of the transfer in any header
        for (Reply raced : List.of(update, create)) {
            assertThat(raced.status()).as(raced.toString()).isEqualTo(403);
            assertThat(raced.body()).as(raced.toString()).isEmpty();
            assertThat(raced.headers().values()).as(raced.headers().toString())
                    .allSatisfy(values -> assertThat(values).noneMatch(value -> value.contains(TRANSFER_TRACE)));
        }
        // And their records, in Georgia's trail, hold only what the caller sent
        List<Map<String, Object>> records = await().atMost(Duration.ofSeconds(20))
                .alias("the refusal writer to store both records")
                .until(() -> jdbc.queryForList("SELECT * FROM audit_records WHERE caller_sub = 'ga-transfer-race' "
                        + "ORDER BY request_id DESC"), found -> found.size() == 2);
        assertThat(records).extracting(record -> record.get("request_id"))
                .containsExactly("transfer-403-update", "transfer-403-create");
        assertThat(records).allSatisfy(record -> assertThat(record)
                .containsEntry("status", 403).containsEntry("problem_code", null).containsEntry("jurisdiction", "georgia")
                .containsEntry("assignment_trace_id", null).containsEntry("assignment_revision", null)
                .containsEntry("ruleset_version", null).containsEntry("row_version_before", null));
        assertThat(records.get(0)).containsEntry("resource_id", placement).containsEntry("case_id", null);
        assertThat(records.get(1)).as("a create's record keeps the case its path named")
                .containsEntry("case_id", createdUnder);
        assertThat(jdbc.queryForObject("SELECT status FROM placements WHERE id = ?", String.class, placement))
                .isEqualTo("PROPOSED");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM placements WHERE case_id = ?", Integer.class, createdUnder))
                .isZero();

        // And a retry is answered the same
        Reply retry = api.post("/cases/" + createdUnder + "/placements", admin, "{}");
        assertThat(retry.status()).as(retry.toString()).isEqualTo(403);
        assertThat(retry.body()).isEmpty();
    }

    /**
     * A write to another jurisdiction's case is refused before anything holds the case: nothing of the event that set
     * its assignment reaches the caller, whose answer is the empty 403 whatever the path, nor the caller's
     * jurisdiction's trail.
     */
    @Test
    void shouldCarryNoTraceOfAnotherJurisdictionsEventInA403OrItsRecord() {
        // Given a Georgia case whose assignment an event with a trace set, with a placement and a kinship option
        UUID caseId = tracedCase("w-1", "s-1", TRACE);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(2)
                .in(Rows.fosterHome().insert(jdbc)).insert(jdbc);
        UUID option = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(2).insert(jdbc);
        String texasAdmin = TestTokens.admin("tx-trace-probe").jurisdiction("texas").token();

        // When a Texas admin tries every write of them, one of them asking to wait for a later revision
        List<Reply> refused = List.of(
                api.post("/cases/" + caseId + "/placements", texasAdmin, "{}"),
                api.post("/cases/" + caseId + "/kinship-options", texasAdmin,
                        "{\"relative_name\": \"Ann\", \"relationship\": \"aunt\"}"),
                api.patch("/placements/" + placement, texasAdmin, TestETags.placement(placement, 1),
                        "{\"status\": \"ACTIVE\"}"),
                api.send(ApiClient.request("PATCH", "/placements/" + placement).token(texasAdmin)
                        .ifMatch(TestETags.placement(placement, 1)).header("Min-Assignment-Revision", "3")
                        .header("Prefer", "wait=1").json("{\"status\": \"ACTIVE\"}")),
                api.patch("/kinship-options/" + option, texasAdmin, TestETags.kinshipOption(option, 1),
                        "{\"approved\": true}"),
                api.delete("/kinship-options/" + option, texasAdmin, TestETags.kinshipOption(option, 1)));

        // Then each is the empty 403, the Georgia event's trace in no header, and no record of them names it
        assertThat(refused).allSatisfy(reply -> {
            assertThat(reply.status()).as(reply.toString()).isEqualTo(403);
            assertThat(reply.body()).as(reply.toString()).isEmpty();
            assertThat(reply.headers().values()).as(reply.headers().toString())
                    .allSatisfy(values -> assertThat(values).noneMatch(value -> value.contains(TRACE)));
        });
        List<Map<String, Object>> records = await().atMost(Duration.ofSeconds(20))
                .alias("the refusal writer to store the six records")
                .until(() -> jdbc.queryForList("SELECT * FROM audit_records WHERE caller_sub = 'tx-trace-probe'"),
                        found -> found.size() == refused.size());
        assertThat(records).allSatisfy(record -> assertThat(record)
                .containsEntry("status", 403).containsEntry("jurisdiction", "texas")
                .containsEntry("assignment_trace_id", null));
    }

    @Test
    void shouldCarryNoAssignmentTraceInAProblemAboutNoAssignment() {
        Reply missing = api.patch("/placements/" + UUID.randomUUID(), TestTokens.caseworker("w-1").token(),
                TestETags.placement(UUID.randomUUID(), 1), "{\"status\": \"ACTIVE\"}");

        assertThat(missing.status()).as(missing.toString()).isEqualTo(404);
        assertThat(missing.json().has("assignment_trace_id")).isFalse();
        assertThat(missing.text("request_id")).isNotBlank();
    }

    /** The request, sent while the projector's apply moves the case to Texas at revision 3 by a traced event. */
    private Reply raceTransfer(UUID caseId, ApiClient.Request request) {
        try (OpenTransaction transfer = OpenTransaction.begin(DB.dataSource(), other -> new AssignmentWriter(other)
                .apply(List.of(AssignmentUpdate.changed(caseId, "w-1", "s-1", 3).withJurisdiction("texas")
                        .withTraceId(TRANSFER_TRACE)))).awaitWork()) {
            return Race.commitWhileItWaits(api, backends, transfer, request);
        }
    }

    /** A case of the default jurisdiction whose assignment, at revision 2, was set by an event with this trace. */
    private UUID tracedCase(String worker, String supervisor, String traceId) {
        UUID caseId = Cases.assignedTo(jdbc, worker, supervisor, 1);
        new AssignmentWriter(jdbc).apply(List.of(AssignmentUpdate.changed(caseId, worker, supervisor, 2)
                .withTraceId(traceId)));
        return caseId;
    }

    private void assertSameTransaction(String table, UUID id) {
        String rowXmin = jdbc.queryForObject("SELECT xmin::text FROM " + table + " WHERE id = ?", String.class, id);
        String recordXmin = jdbc.queryForObject("""
                SELECT xmin::text FROM audit_records WHERE resource_id = ? ORDER BY recorded_at DESC, id DESC LIMIT 1""",
                String.class, id);
        assertThat(recordXmin).as("the record is inserted by the transaction that wrote the row").isEqualTo(rowXmin);
    }

    /** {@code ('2026-11-01 00:00:00+00') TO ('2026-12-01 00:00:00+00')}. */
    private String thisMonth() {
        return jdbc.queryForObject("""
                SELECT format('(%L) TO (%L)', m AT TIME ZONE 'UTC', (m + interval '1 month') AT TIME ZONE 'UTC')
                  FROM (SELECT date_trunc('month', now() AT TIME ZONE 'UTC') AS m) month""", String.class);
    }

    private List<Map<String, Object>> recordsOf(UUID resource) {
        return jdbc.queryForList("""
                SELECT *, caller_roles::text AS roles FROM audit_records
                 WHERE resource_id = ? ORDER BY recorded_at, id""", resource);
    }

    private Map<String, Object> onlyRecordOf(UUID resource) {
        List<Map<String, Object>> records = recordsOf(resource);
        assertThat(records).hasSize(1);
        return records.get(0);
    }

    private Map<String, Object> latestRecordOf(UUID resource) {
        List<Map<String, Object>> records = recordsOf(resource);
        return records.get(records.size() - 1);
    }

    private Map<String, Object> awaitOnlyRecordOf(UUID resource) {
        List<Map<String, Object>> records = await().atMost(Duration.ofSeconds(20))
                .alias("the refusal writer to store the record")
                .until(() -> recordsOf(resource), found -> !found.isEmpty());
        assertThat(records).hasSize(1);
        return records.get(0);
    }

    private long count() {
        Long count = jdbc.queryForObject("SELECT count(*) FROM audit_records", Long.class);
        return count == null ? 0 : count;
    }
}
