package org.caseassignments.api.placement;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Where a placement may be, over HTTP (decisions 22 and 43): ACTIVE only in a home, ENDED and CANCELLED in the home
 * they were in, and activated or moved only into a home of its case's jurisdiction. Each refusal is a 409 problem
 * with its own code, and leaves the row as it was.
 */
@ApiIntegrationTest
class PlacementHomeRulesIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final String admin = TestTokens.admin("admin-1").token();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldRefuseActivatingAPlacementThatNamesNoHome() {
        UUID placement = placementIn(null, "PROPOSED");

        Reply reply = api.patch("/placements/" + placement, admin, TestETags.placement(placement, 1),
                "{\"status\": \"ACTIVE\"}");

        assertProblem(reply, "PLACEMENT_NEEDS_HOME");
        assertUnchanged(placement, "PROPOSED", null);
    }

    @Test
    void shouldRefuseClearingTheHomeOfAnActivePlacementWithAMergePatch() {
        UUID home = Rows.fosterHome().insert(jdbc);
        UUID placement = placementIn(home, "ACTIVE");

        Reply reply = mergePatch(placement, "{\"foster_home_id\": null}");

        assertProblem(reply, "PLACEMENT_NEEDS_HOME");
        assertThat(reply.body()).contains("END the placement");
        assertUnchanged(placement, "ACTIVE", home);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ENDED", "CANCELLED"})
    void shouldRefuseMovingAFinalPlacementToAnotherHomeOrClearingIt(String status) {
        UUID home = Rows.fosterHome().insert(jdbc);
        UUID elsewhere = Rows.fosterHome().insert(jdbc);
        UUID placement = placementIn(home, status);

        Reply moved = api.patch("/placements/" + placement, admin, TestETags.placement(placement, 1),
                "{\"foster_home_id\": \"" + elsewhere + "\"}");
        Reply cleared = mergePatch(placement, "{\"foster_home_id\": null}");

        assertProblem(moved, "FINAL_PLACEMENT_KEEPS_HOME");
        assertProblem(cleared, "FINAL_PLACEMENT_KEEPS_HOME");
        assertUnchanged(placement, status, home);
    }

    @Test
    void shouldRefuseEndingAPlacementAndMovingItInOnePatch() {
        UUID home = Rows.fosterHome().insert(jdbc);
        UUID elsewhere = Rows.fosterHome().insert(jdbc);
        UUID placement = placementIn(home, "ACTIVE");

        Reply reply = api.patch("/placements/" + placement, admin, TestETags.placement(placement, 1),
                "{\"status\": \"ENDED\", \"foster_home_id\": \"" + elsewhere + "\"}");

        assertProblem(reply, "FINAL_PLACEMENT_KEEPS_HOME");
        assertUnchanged(placement, "ACTIVE", home);
    }

    /**
     * The case moved from Georgia to Texas after its placement was proposed in a Georgia home: a Texas admin, who may
     * write the case, cannot activate it there, and the answer does not say whose home it is.
     */
    @Test
    void shouldRefuseActivatingAPlacementLeftInTheOldJurisdictionsHomeAfterItsCaseMoved() {
        UUID georgiaHome = Rows.fosterHome().jurisdiction("georgia").insert(jdbc);
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1, "georgia");
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).in(georgiaHome).insert(jdbc);
        new AssignmentWriter(jdbc).apply(List.of(AssignmentUpdate.changed(caseId, "w-1", "s-1", 2).withJurisdiction("texas")));
        String texasAdmin = TestTokens.admin("admin-tx").jurisdiction("texas").token();

        long version = jdbc.queryForObject("SELECT row_version FROM placements WHERE id = ?", Long.class, placement);

        Reply reply = api.patch("/placements/" + placement, texasAdmin, TestETags.placement(placement, version),
                "{\"status\": \"ACTIVE\"}");

        assertProblem(reply, "HOME_OF_ANOTHER_JURISDICTION");
        assertThat(reply.body()).contains("texas").doesNotContain("georgia");
        assertThat(jdbc.queryForMap("SELECT status, row_version FROM placements WHERE id = ?", placement))
                .containsEntry("status", "PROPOSED").containsEntry("row_version", version);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM placements WHERE foster_home_id = ? AND status = 'ACTIVE'",
                Integer.class, georgiaHome)).isZero();
    }

    @Test
    void shouldActivateAPlacementInALicensedHomeOfItsCasesJurisdiction() {
        UUID home = Rows.fosterHome().insert(jdbc);
        UUID placement = placementIn(home, "PROPOSED");

        Reply reply = api.patch("/placements/" + placement, admin, TestETags.placement(placement, 1),
                "{\"status\": \"ACTIVE\"}");

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.text("foster_home_id")).isEqualTo(home.toString());
    }

    /** A Georgia case's placement in this home (none: null) and status, written directly. */
    private UUID placementIn(UUID home, String status) {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        return Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).in(home).status(status).insert(jdbc);
    }

    private Reply mergePatch(UUID placement, String json) {
        return api.send(ApiClient.request("PATCH", "/placements/" + placement).token(admin)
                .ifMatch(TestETags.placement(placement, 1))
                .body("application/merge-patch+json", json.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    }

    private void assertUnchanged(UUID placement, String status, UUID home) {
        assertThat(jdbc.queryForMap("SELECT status, foster_home_id, row_version FROM placements WHERE id = ?", placement))
                .containsEntry("status", status).containsEntry("foster_home_id", home).containsEntry("row_version", 1L);
    }

    private static void assertProblem(Reply reply, String code) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(409);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        assertThat(reply.code()).isEqualTo(code);
        assertThat(reply.body()).as("no SQL, trigger or constraint in the answer")
                .doesNotContain("PL/pgSQL", "placements_", "ERROR:");
    }
}
