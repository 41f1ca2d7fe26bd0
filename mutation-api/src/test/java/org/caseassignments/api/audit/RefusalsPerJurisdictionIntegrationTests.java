package org.caseassignments.api.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A subject's refusals are budgeted and summarised per jurisdiction it acts in, each in that jurisdiction's trail;
 * a read of another jurisdiction's record is a refusal of the caller's jurisdiction's trail, under the same budget.
 */
@ApiIntegrationTest
class RefusalsPerJurisdictionIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    private static final int BUDGET = 2;
    private static final String KINSHIP = "{\"relative_name\": \"Ann\", \"relationship\": \"aunt\"}";

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("api.audit.refusal-budget", () -> String.valueOf(BUDGET));
        registry.add("api.audit.refusal-budget-window", () -> "2s");
    }

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldSummariseASubjectsRefusalsInEachJurisdictionWithOnlyThatJurisdictionsCount() {
        ApiClient api = new ApiClient(port);
        UUID texasCase = Cases.assignedTo(jdbc, "w-1", "s-1", 1, "texas");
        UUID georgiaCase = Cases.assignedTo(jdbc, "w-1", "s-1", 1, "georgia");
        String inTexas = TestTokens.subject("roleless-in-two").jurisdiction("texas").token();
        String inGeorgia = TestTokens.subject("roleless-in-two").jurisdiction("georgia").token();

        for (int i = 0; i < BUDGET + 5; i++) {
            assertThat(api.post("/cases/" + texasCase + "/kinship-options", inTexas, KINSHIP).status()).isEqualTo(403);
        }
        for (int i = 0; i < BUDGET + 2; i++) {
            assertThat(api.post("/cases/" + georgiaCase + "/kinship-options", inGeorgia, KINSHIP).status()).isEqualTo(403);
        }

        List<Map<String, Object>> summaries = await().atMost(Duration.ofSeconds(20)).alias("both windows' summaries")
                .until(() -> jdbc.queryForList("""
                        SELECT jurisdiction, more_refusals FROM audit_records
                         WHERE caller_sub = 'roleless-in-two' AND more_refusals IS NOT NULL ORDER BY jurisdiction"""),
                        found -> found.size() >= 2);
        assertThat(summaries).containsExactly(Map.of("jurisdiction", "georgia", "more_refusals", 2),
                Map.of("jurisdiction", "texas", "more_refusals", 5));
        assertThat(recordsOneByOne("roleless-in-two", "texas")).as("each jurisdiction's own budget").isEqualTo(BUDGET);
        assertThat(recordsOneByOne("roleless-in-two", "georgia")).isEqualTo(BUDGET);
    }

    @Test
    void shouldRecordAReadOfAnotherJurisdictionsRecordInTheCallersTrailWithOnlyWhatTheCallerSent() {
        ApiClient api = new ApiClient(port);
        UUID georgiaCase = Cases.assignedTo(jdbc, "w-1", "s-1", 1, "georgia");
        UUID placement = Rows.placement(georgiaCase).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        String texas = TestTokens.admin("tx-read-probe").jurisdiction("texas").token();

        Reply ofPlacement = api.get("/placements/" + placement, texas);
        Reply ofAssignment = api.get("/cases/" + georgiaCase + "/assignment", texas);

        assertThat(List.of(ofPlacement, ofAssignment)).allSatisfy(reply -> {
            assertThat(reply.status()).as(reply.toString()).isEqualTo(403);
            assertThat(reply.body()).isEmpty();
        });
        List<Map<String, Object>> records = await().atMost(Duration.ofSeconds(20)).alias("both probes' records")
                .until(() -> jdbc.queryForList("""
                        SELECT jurisdiction, action, status, outcome, resource_type, resource_id, case_id, ruleset_version,
                               assignment_revision, assignment_trace_id, assigned_worker_sub, request_id
                          FROM audit_records WHERE caller_sub = 'tx-read-probe' ORDER BY resource_type DESC"""),
                        found -> found.size() == 2);
        assertThat(records).allSatisfy(record -> assertThat(record)
                .containsEntry("jurisdiction", "texas").containsEntry("action", "read").containsEntry("status", 403)
                .containsEntry("outcome", "REFUSED").containsEntry("case_id", null)
                .containsEntry("ruleset_version", null).containsEntry("assignment_revision", null)
                .containsEntry("assignment_trace_id", null).containsEntry("assigned_worker_sub", null));
        assertThat(records).extracting(record -> record.get("resource_type"), record -> record.get("resource_id"))
                .containsExactly(tuple("placement", placement),
                        tuple("case_assignment", georgiaCase));
        assertThat(records).extracting(record -> record.get("request_id"))
                .containsExactly(ofPlacement.header("X-Request-Id").orElseThrow(),
                        ofAssignment.header("X-Request-Id").orElseThrow());
        assertThat(jdbc.queryForObject("SELECT count(*) FROM audit_records WHERE jurisdiction = 'georgia' "
                + "AND caller_sub = 'tx-read-probe'", Integer.class)).as("nothing in the target's trail").isZero();
    }

    @Test
    void shouldNotRecordAReadOfACaseTheProjectionHasNotSeenYetAsAProbe() {
        ApiClient api = new ApiClient(port);
        UUID notYetProjected = UUID.randomUUID();
        UUID georgiaCase = Cases.assignedTo(jdbc, "w-1", "s-1", 1, "georgia");
        String texas = TestTokens.admin("tx-polls-a-new-case").jurisdiction("texas").token();

        assertThat(api.get("/cases/" + notYetProjected + "/assignment", texas).status()).isEqualTo(403);
        // then a real probe, queued after it: once its record is stored, the refusal writer has seen both
        assertThat(api.get("/cases/" + georgiaCase + "/assignment", texas).status()).isEqualTo(403);

        List<UUID> recorded = await().atMost(Duration.ofSeconds(20)).alias("the probe's record")
                .until(() -> jdbc.queryForList("SELECT resource_id FROM audit_records "
                        + "WHERE caller_sub = 'tx-polls-a-new-case' ORDER BY id", UUID.class), found -> !found.isEmpty());
        assertThat(recorded).containsExactly(georgiaCase);
    }

    @Test
    void shouldBudgetAFloodOfReadProbesLikeRefusedWrites() {
        ApiClient api = new ApiClient(port);
        UUID georgiaCase = Cases.assignedTo(jdbc, "w-1", "s-1", 1, "georgia");
        String texas = TestTokens.subject("tx-read-flood").jurisdiction("texas").token();
        int probes = 30;

        for (int i = 0; i < probes; i++) {
            assertThat(api.get("/cases/" + georgiaCase + "/assignment", texas).status()).isEqualTo(403);
        }

        Map<String, Object> summary = await().atMost(Duration.ofSeconds(20)).alias("the probes' summary")
                .until(() -> jdbc.queryForList("SELECT * FROM audit_records WHERE caller_sub = 'tx-read-flood' "
                        + "AND more_refusals IS NOT NULL"), found -> !found.isEmpty()).get(0);
        assertThat(summary).containsEntry("more_refusals", probes - BUDGET).containsEntry("action", "read")
                .containsEntry("jurisdiction", "texas").containsEntry("resource_id", null);
        assertThat(recordsOneByOne("tx-read-flood", "texas")).isEqualTo(BUDGET);
    }

    private long recordsOneByOne(String sub, String jurisdiction) {
        Long count = jdbc.queryForObject("SELECT count(*) FROM audit_records WHERE caller_sub = ? AND jurisdiction = ? "
                + "AND more_refusals IS NULL", Long.class, sub, jurisdiction);
        return count == null ? 0 : count;
    }
}
