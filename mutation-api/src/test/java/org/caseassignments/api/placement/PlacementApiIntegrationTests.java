package org.caseassignments.api.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

@ApiIntegrationTest
class PlacementApiIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldCreateWithTheProjectionsAssignmentNotTheCallersAndAnswerLocationAndETag() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 4);
        UUID home = Rows.fosterHome().insert(jdbc);

        Reply created = api.post("/cases/" + caseId + "/placements", TestTokens.supervisor("s-1").token(),
                "{\"foster_home_id\": \"" + home + "\", \"start_date\": \"2026-05-01\"}");

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.etag()).isEqualTo(TestETags.placement(UUID.fromString(created.text("id")), 1));
        assertThat(created.header("Location")).hasValue("/placements/" + created.text("id"));
        assertThat(created.text("status")).isEqualTo("PROPOSED");
        assertThat(created.text("case_id")).isEqualTo(caseId.toString());
        assertThat(created.text("assigned_worker_sub")).isEqualTo("w-1");
        assertThat(created.text("supervisor_sub")).isEqualTo("s-1");
        assertThat(created.json().path("assignment_revision").asLong()).isEqualTo(4);
        assertThat(created.text("foster_home_id")).isEqualTo(home.toString());
        assertThat(created.text("start_date")).isEqualTo("2026-05-01");
        assertThat(created.text("created_by")).isEqualTo("s-1");
        assertThat(created.json().has("row_version")).as("the version travels in ETag only").isFalse();
    }

    @Test
    void shouldLetTheAssignedCaseworkerCreateReadAndMoveAPlacementThroughItsLife() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String worker = TestTokens.caseworker("w-1").token();
        UUID home = Rows.fosterHome().insert(jdbc);
        String id = api.post("/cases/" + caseId + "/placements", worker, "{\"foster_home_id\": \"" + home + "\"}")
                .text("id");

        Reply read = api.get("/placements/" + id, worker);
        Reply active = api.patch("/placements/" + id, worker, read.etag(),
                "{\"status\": \"ACTIVE\", \"start_date\": \"2026-05-01\"}");
        Reply ended = api.patch("/placements/" + id, worker, active.etag(),
                "{\"status\": \"ENDED\", \"end_date\": \"2026-06-01\"}");
        Reply reopened = api.patch("/placements/" + id, worker, ended.etag(), "{\"status\": \"ACTIVE\"}");

        assertThat(read.status()).isEqualTo(200);
        assertThat(read.etag()).isEqualTo(TestETags.placement(UUID.fromString(id), 1));
        assertThat(active.status()).as(active.toString()).isEqualTo(200);
        assertThat(active.etag()).isEqualTo(TestETags.placement(UUID.fromString(id), 2));
        assertThat(ended.status()).as(ended.toString()).isEqualTo(200);
        assertThat(ended.etag()).isEqualTo(TestETags.placement(UUID.fromString(id), 3));
        assertThat(ended.text("end_date")).isEqualTo("2026-06-01");
        assertThat(reopened.status()).isEqualTo(409);
        assertThat(reopened.code()).isEqualTo("INVALID_TRANSITION");
    }

    @Test
    void shouldCancelAProposedPlacementButNotAnEndedOne() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID proposed = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        String worker = TestTokens.caseworker("w-1").token();

        Reply cancelled = api.patch("/placements/" + proposed, worker, TestETags.placement(proposed, 1),
                "{\"status\": \"CANCELLED\"}");
        Reply again = api.patch("/placements/" + proposed, worker, cancelled.etag(), "{\"status\": \"PROPOSED\"}");

        assertThat(cancelled.status()).isEqualTo(200);
        assertThat(again.code()).isEqualTo("INVALID_TRANSITION");
    }

    /** Each row is authorized against its case's projection row, whatever the row's copy says (decision 29). */
    @Test
    void shouldListOnlyThePlacementsTheCallerMayRead() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID current = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        UUID staleCopy = Rows.placement(caseId).worker("w-0").supervisor("s-1").revision(0).insert(jdbc);

        Reply worker = api.get("/cases/" + caseId + "/placements", TestTokens.caseworker("w-1").token());
        Reply formerWorker = api.get("/cases/" + caseId + "/placements", TestTokens.caseworker("w-0").token());
        Reply supervisor = api.get("/cases/" + caseId + "/placements", TestTokens.supervisor("s-9").token());
        Reply texasSupervisor = api.get("/cases/" + caseId + "/placements",
                TestTokens.supervisor("s-9").jurisdiction("texas").token());

        assertThat(worker.json().path("items").valueStream().map(p -> p.path("id").asString()))
                .containsExactlyInAnyOrder(current.toString(), staleCopy.toString());
        assertThat(formerWorker.json().path("items").size()).as("a copy naming w-0 grants w-0 nothing").isZero();
        assertThat(supervisor.json().path("items").size()).isEqualTo(2);
        assertThat(texasSupervisor.json().path("items").size()).isZero();
    }

    @Test
    void shouldLetATexasSupervisorUpdateOnlyThePlacementsTheySupervise() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1, "texas");
        UUID home = Rows.fosterHome().jurisdiction("texas").insert(jdbc);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).in(home).insert(jdbc);

        Reply other = api.patch("/placements/" + placement, TestTokens.supervisor("s-2").jurisdiction("texas").token(),
                TestETags.placement(placement, 1), "{\"status\": \"ACTIVE\"}");
        Reply own = api.patch("/placements/" + placement, TestTokens.supervisor("s-1").jurisdiction("texas").token(),
                TestETags.placement(placement, 1), "{\"status\": \"ACTIVE\"}");

        assertThat(other.status()).isEqualTo(403);
        assertThat(own.status()).as(own.toString()).isEqualTo(200);
    }

    @Test
    void shouldServeTheCasesAssignmentFromTheProjection() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 3);

        Reply assignment = api.get("/cases/" + caseId + "/assignment", TestTokens.caseworker("w-9").token());

        assertThat(assignment.status()).isEqualTo(200);
        assertThat(assignment.text("case_id")).isEqualTo(caseId.toString());
        assertThat(assignment.text("assigned_worker_sub")).isEqualTo("w-1");
        assertThat(assignment.text("supervisor_sub")).isEqualTo("s-1");
        assertThat(assignment.json().path("assignment_revision").asLong()).isEqualTo(3);
    }

    @Test
    void shouldDenyTheAssignmentOfACaseWhoseJurisdictionIsNotKnownAsAnyOtherRecordTheCallerMayNotRead() {
        UUID placeholder = Rows.assignment(UUID.randomUUID()).placeholder().insert(jdbc);
        UUID legacy = Cases.assignedTo(jdbc, "w-1", "s-1", 3, null);
        UUID notProjected = UUID.randomUUID();

        for (UUID caseId : new UUID[] {placeholder, legacy, notProjected}) {
            Reply reply = api.get("/cases/" + caseId + "/assignment", TestTokens.admin("a-1").token());

            assertThat(reply.status()).as(reply.toString()).isEqualTo(403);
            assertThat(reply.body()).isEmpty();
        }
    }

    @Test
    void shouldServeTheAssignmentOnlyToARoleTheRulesetLetsReadIt() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 3);

        assertThat(api.get("/cases/" + caseId + "/assignment", TestTokens.subject("nobody").token()).status())
                .isEqualTo(403);
        assertThat(api.get("/cases/" + caseId + "/assignment", TestTokens.countyDirector("d-1", "unit-1").token())
                .status()).isEqualTo(403);
        assertThat(api.get("/cases/" + caseId + "/assignment", TestTokens.supervisor("s-9").token()).status())
                .isEqualTo(200);
    }
}
