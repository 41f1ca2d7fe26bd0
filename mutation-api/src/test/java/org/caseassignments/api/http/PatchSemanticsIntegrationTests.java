package org.caseassignments.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
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
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What a PATCH means: a PATCH that would leave the locked row as it is writes nothing (400, the version
 * does not move, other holders of the ETag keep writing); {@code application/merge-patch+json} clears a
 * nullable field with {@code null} and refuses it for a required one; {@code application/json} keeps a
 * field that is absent or null.
 */
@ApiIntegrationTest
class PatchSemanticsIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final String admin = TestTokens.admin("a-1").token();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldRefuseAPatchGivingTheSameStartDateWithoutANewVersion() {
        UUID placement = placement();
        Reply dated = api.patch("/placements/" + placement, admin, TestETags.placement(placement, 1),
                "{\"start_date\": \"2026-05-01\"}");

        Reply again = api.patch("/placements/" + placement, admin, dated.etag(), "{\"start_date\": \"2026-05-01\"}");
        Reply otherHolder = api.patch("/placements/" + placement, admin, dated.etag(), "{\"status\": \"CANCELLED\"}");

        assertChangesNothing(again);
        assertThat(otherHolder.status()).as("the tag still names the current version: " + otherHolder).isEqualTo(200);
        assertThat(rowVersion("placements", placement)).isEqualTo(3);
    }

    /**
     * ADR-035 (2026-09-07): a stale tag is a 412 even when the request would change nothing. The tag names the version
     * the pre-read sees; another writer, holding the row, writes the same start date before the PATCH's lock, so
     * under the lock the request is both stale and a no-op: the stale tag answers first.
     */
    @Test
    void shouldAnswer412NotValidationFailedToANoOpPatchWhoseTagWentStaleBeforeTheLock() throws Exception {
        UUID placement = placement();
        String tag = TestETags.placement(placement, 1);
        CompletableFuture<Reply> patch;
        try (OpenTransaction sameValue = OpenTransaction.begin(DB.dataSource(), tx -> tx.update("""
                UPDATE placements SET start_date = DATE '2026-05-01', row_version = row_version + 1 WHERE id = ?
                """, placement)).awaitWork()) {
            patch = api.sendAsync(ApiClient.request("PATCH", "/placements/" + placement).token(admin).ifMatch(tag)
                    .json("{\"start_date\": \"2026-05-01\"}"));
            new Backends(jdbc).awaitBlockedBy(sameValue.pid());
            sameValue.commit();
        }

        Reply reply = patch.get(30, TimeUnit.SECONDS);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(412);
        assertThat(reply.code()).isEqualTo("PRECONDITION_FAILED");
        assertThat(rowVersion("placements", placement)).isEqualTo(2);
    }

    @Test
    void shouldRefuseEndingAnEndedPlacementWithoutANewVersion() {
        UUID placement = placement();
        jdbc.update("UPDATE placements SET status = 'ENDED' WHERE id = ?", placement); // version 2, by the database

        Reply reply = api.patch("/placements/" + placement, admin, TestETags.placement(placement, 2),
                "{\"status\": \"ENDED\"}");

        assertChangesNothing(reply);
        assertThat(rowVersion("placements", placement)).isEqualTo(2);
        assertThat(api.get("/placements/" + placement, admin).etag()).isEqualTo(TestETags.placement(placement, 2));
    }

    @Test
    void shouldRefuseRenamingAHomeAndAnOptionToTheirOwnNames() {
        UUID home = Rows.fosterHome().name("Maple House").insert(jdbc);
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID option = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        String relativeName = jdbc.queryForObject("SELECT relative_name FROM kinship_options WHERE id = ?", String.class,
                option);

        assertChangesNothing(api.patch("/foster-homes/" + home, admin, TestETags.fosterHome(home, 1),
                "{\"name\": \"Maple House\"}"));
        assertChangesNothing(api.patch("/kinship-options/" + option, admin, TestETags.kinshipOption(option, 1),
                "{\"relative_name\": \"" + relativeName + "\", \"approved\": false}"));
        assertThat(rowVersion("foster_homes", home)).isEqualTo(1);
        assertThat(rowVersion("kinship_options", option)).isEqualTo(1);
    }

    /** A PROPOSED placement may name no home; an ACTIVE one never does (decision 22), so its home is not cleared. */
    @Test
    void shouldClearNullableFieldsWithAMergePatchKeepTheOthersAndNeverClearTheHomeOfAnActivePlacement() {
        UUID home = Rows.fosterHome().capacity(4).insert(jdbc);
        UUID placement = placement();
        Reply set = api.patch("/placements/" + placement, admin, TestETags.placement(placement, 1),
                "{\"foster_home_id\": \"" + home + "\", \"start_date\": \"2026-05-01\", \"end_date\": \"2026-06-01\"}");

        Reply cleared = mergePatch("/placements/" + placement, set.etag(), "{\"foster_home_id\": null, \"end_date\": null}");
        Reply activated = api.patch("/placements/" + placement, admin, cleared.etag(),
                "{\"foster_home_id\": \"" + home + "\", \"status\": \"ACTIVE\"}");
        Reply homeless = mergePatch("/placements/" + placement, activated.etag(), "{\"foster_home_id\": null}");
        Reply noCapacity = mergePatch("/foster-homes/" + home, TestETags.fosterHome(home, 1, 1), "{\"capacity\": null}");

        assertThat(cleared.status()).as(cleared.toString()).isEqualTo(200);
        assertThat(cleared.json().path("foster_home_id").isNull()).isTrue();
        assertThat(cleared.json().path("end_date").isNull()).isTrue();
        assertThat(cleared.text("start_date")).isEqualTo("2026-05-01");
        assertThat(cleared.text("status")).isEqualTo("PROPOSED");
        assertThat(activated.status()).as(activated.toString()).isEqualTo(200);
        assertThat(homeless.status()).as(homeless.toString()).isEqualTo(409);
        assertThat(homeless.code()).isEqualTo("PLACEMENT_NEEDS_HOME");
        assertThat(jdbc.queryForMap("SELECT status, foster_home_id, end_date FROM placements WHERE id = ?", placement))
                .containsEntry("status", "ACTIVE").containsEntry("foster_home_id", home).containsEntry("end_date", null);
        assertThat(noCapacity.status()).as(noCapacity.toString()).isEqualTo(200);
        assertThat(noCapacity.json().path("capacity").isNull()).isTrue();
        assertThat(jdbc.queryForObject("SELECT capacity FROM foster_homes WHERE id = ?", Integer.class, home)).isNull();
    }

    @Test
    void shouldAuthorizeAClearAsPartOfTheAfterImageLikeAnyOtherChange() {
        UUID home = Rows.fosterHome().adminUnit("unit-1").capacity(4).insert(jdbc);
        UUID placement = placement();
        String director = TestTokens.countyDirector("d-1", "unit-1").token();
        String stranger = TestTokens.caseworker("w-2").token();

        Reply movedAway = mergePatch("/foster-homes/" + home, director, TestETags.fosterHome(home, 1),
                "{\"capacity\": null, \"admin_unit\": \"unit-2\"}");
        Reply strangerClears = mergePatch("/placements/" + placement, stranger, TestETags.placement(placement, 1),
                "{\"start_date\": null, \"status\": \"CANCELLED\"}");
        Reply cleared = mergePatch("/foster-homes/" + home, director, TestETags.fosterHome(home, 1), "{\"capacity\": null}");

        assertThat(movedAway.status()).as(movedAway.toString()).isEqualTo(403);
        assertThat(strangerClears.status()).as(strangerClears.toString()).isEqualTo(403);
        assertThat(cleared.status()).as(cleared.toString()).isEqualTo(200);
        assertThat(cleared.text("admin_unit")).isEqualTo("unit-1");
        assertThat(rowVersion("foster_homes", home)).isEqualTo(2);
        assertThat(rowVersion("placements", placement)).isEqualTo(1);
    }

    @Test
    void shouldKeepAFieldThatIsNullInAJsonPatch() {
        UUID home = Rows.fosterHome().capacity(4).insert(jdbc);

        Reply reply = api.patch("/foster-homes/" + home, admin, TestETags.fosterHome(home, 1),
                "{\"capacity\": null, \"name\": \"Birch House\"}");
        Reply onlyNull = api.patch("/foster-homes/" + home, admin, reply.etag(), "{\"capacity\": null}");

        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().path("capacity").asInt()).isEqualTo(4);
        assertThat(onlyNull.status()).isEqualTo(400);
        assertThat(onlyNull.code()).isEqualTo("VALIDATION_FAILED");
    }

    @Test
    void shouldRefuseAMergePatchThatRemovesARequiredField() {
        UUID home = Rows.fosterHome().insert(jdbc);
        UUID placement = placement();
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID option = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);

        Reply name = mergePatch("/foster-homes/" + home, TestETags.fosterHome(home, 1),
                "{\"name\": null, \"capacity\": 2}");
        Reply status = mergePatch("/placements/" + placement, TestETags.placement(placement, 1), "{\"status\": null}");
        Reply approved = mergePatch("/kinship-options/" + option, TestETags.kinshipOption(option, 1),
                "{\"approved\": null, \"relationship\": null}");

        assertInvalid(name, "name");
        assertInvalid(status, "status");
        assertInvalid(approved, "relationship", "approved");
        assertThat(rowVersion("foster_homes", home)).isEqualTo(1);
        assertThat(rowVersion("placements", placement)).isEqualTo(1);
        assertThat(rowVersion("kinship_options", option)).isEqualTo(1);
    }

    @Test
    void shouldRefuseAMergePatchClearingWhatIsAlreadyEmpty() {
        UUID placement = placement();

        assertChangesNothing(mergePatch("/placements/" + placement, TestETags.placement(placement, 1),
                "{\"foster_home_id\": null}"));
        assertThat(rowVersion("placements", placement)).isEqualTo(1);
    }

    @Test
    void shouldAnswer415ToAPatchInAnotherFormat() {
        UUID placement = placement();

        Reply reply = api.send(ApiClient.request("PATCH", "/placements/" + placement).token(admin)
                .ifMatch(TestETags.placement(placement, 1))
                .body("application/json-patch+json", "[{\"op\": \"remove\", \"path\": \"/end_date\"}]"
                        .getBytes(StandardCharsets.UTF_8)));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(415);
        assertThat(reply.code()).isEqualTo("UNSUPPORTED_MEDIA_TYPE");
    }

    private Reply mergePatch(String path, String ifMatch, String json) {
        return mergePatch(path, admin, ifMatch, json);
    }

    private Reply mergePatch(String path, String token, String ifMatch, String json) {
        return api.send(ApiClient.request("PATCH", path).token(token).ifMatch(ifMatch)
                .body("application/merge-patch+json", json.getBytes(StandardCharsets.UTF_8)));
    }

    private UUID placement() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        return Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
    }

    private long rowVersion(String table, UUID id) {
        return jdbc.queryForObject("SELECT row_version FROM " + table + " WHERE id = ?", Long.class, id);
    }

    private static void assertChangesNothing(Reply reply) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
        assertThat(reply.code()).isEqualTo("VALIDATION_FAILED");
        assertThat(reply.text("detail")).isNotBlank();
        assertThat(reply.json().path("errors").path(0).path("message").asString()).contains("nothing was written");
    }

    private static void assertInvalid(Reply reply, String... fields) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(400);
        assertThat(reply.code()).isEqualTo("VALIDATION_FAILED");
        List<String> named = reply.json().path("errors").valueStream().map(error -> error.path("field").asString()).toList();
        assertThat(named).containsExactlyInAnyOrder(fields);
    }
}
