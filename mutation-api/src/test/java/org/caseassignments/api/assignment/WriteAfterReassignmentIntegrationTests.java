package org.caseassignments.api.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import org.awaitility.Awaitility;
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
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A caller who has just reassigned a case upstream writes with {@code Min-Assignment-Revision}: the write waits
 * for the projection instead of being refused for an assignment the projection has not seen yet.
 */
@ApiIntegrationTest
class WriteAfterReassignmentIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("api.assignment.recheck-interval", () -> "1h");
    }

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final AssignmentWriter writer = new AssignmentWriter(jdbc);
    private final TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(DB.dataSource()));
    private final String newWorker = TestTokens.caseworker("w-2").token();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldLetTheNewAssigneePatchOnceTheReassignmentLandsWhereWithoutTheHeaderItIs403() throws Exception {
        // Given a case assigned to w-1 at revision 1 with a placement, reassigned upstream to w-2 (revision 2)
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        String afterTheEvent = TestETags.placement(placement, 2);
        assertThat(api.patch("/placements/" + placement, newWorker, afterTheEvent, "{\"start_date\": \"2026-01-02\"}")
                .status()).as("without the header").isEqualTo(403);

        // When w-2 patches with Min-Assignment-Revision: 2 and the projector then applies revision 2
        CompletableFuture<Reply> patch = api.sendAsync(ApiClient.request("PATCH", "/placements/" + placement)
                .token(newWorker).ifMatch(afterTheEvent).json("{\"start_date\": \"2026-01-02\"}")
                .header("Min-Assignment-Revision", "2").header("Prefer", "wait=10"));
        awaitWaiters(1);
        assertThat(patch).isNotDone();
        reassign(caseId, "w-2", 2);

        // Then the PATCH is authorized against the new assignment and written
        Reply reply = patch.get(10, TimeUnit.SECONDS);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(200);
        assertThat(reply.json().path("assigned_worker_sub").asString()).isEqualTo("w-2");
        assertThat(reply.json().path("start_date").asString()).isEqualTo("2026-01-02");
        assertThat(reply.header("Assignment-Revision")).contains("2");
    }

    @Test
    void shouldLetTheNewAssigneeCreateOnceTheReassignmentLands() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);

        CompletableFuture<Reply> create = api.sendAsync(ApiClient.request("POST", "/cases/" + caseId + "/kinship-options")
                .token(newWorker).json("{\"relative_name\": \"Ann\", \"relationship\": \"aunt\"}")
                .header("Min-Assignment-Revision", "2").header("Prefer", "respond-async, wait=10"));
        awaitWaiters(1);
        reassign(caseId, "w-2", 2);

        Reply reply = create.get(10, TimeUnit.SECONDS);
        assertThat(reply.status()).as(reply.toString()).isEqualTo(201);
        assertThat(reply.header("Assignment-Revision")).contains("2");
    }

    @Test
    void shouldLetTheNewAssigneePatchAndDeleteAKinshipOptionAndCreateAPlacementOnceTheReassignmentLands()
            throws Exception {
        // Given a case assigned to w-1 at revision 1 with two kinship options, reassigned upstream to w-2
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID patched = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        UUID deleted = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        assertThat(api.delete("/kinship-options/" + deleted, newWorker, TestETags.kinshipOption(deleted, 2)).status())
                .as("without the header").isEqualTo(403);

        // When w-2 patches one, deletes the other and creates a placement, each with Min-Assignment-Revision: 2
        CompletableFuture<Reply> patch = api.sendAsync(ApiClient.request("PATCH", "/kinship-options/" + patched)
                .token(newWorker).ifMatch(TestETags.kinshipOption(patched, 2)).json("{\"approved\": true}")
                .header("Min-Assignment-Revision", "2").header("Prefer", "wait=10"));
        CompletableFuture<Reply> delete = api.sendAsync(ApiClient.request("DELETE", "/kinship-options/" + deleted)
                .token(newWorker).ifMatch(TestETags.kinshipOption(deleted, 2))
                .header("Min-Assignment-Revision", "2").header("Prefer", "wait=10"));
        CompletableFuture<Reply> create = api.sendAsync(ApiClient.request("POST", "/cases/" + caseId + "/placements")
                .token(newWorker).json("{\"start_date\": \"2026-01-02\"}")
                .header("Min-Assignment-Revision", "2").header("Prefer", "wait=10"));
        awaitWaiters(3);
        assertThat(List.of(patch, delete, create)).noneMatch(CompletableFuture::isDone);
        reassign(caseId, "w-2", 2);

        // Then each is authorized against the new assignment, made, and says the revision it was made under
        for (CompletableFuture<Reply> write : List.of(patch, delete, create)) {
            Reply reply = write.get(10, TimeUnit.SECONDS);
            assertThat(reply.status()).as(reply.toString()).isIn(200, 201, 204);
            assertThat(reply.header("Assignment-Revision")).as(reply.toString()).contains("2");
        }
        assertThat(patch.get().json().path("approved").asBoolean()).isTrue();
        assertThat(delete.get().status()).isEqualTo(204);
        assertThat(jdbc.queryForObject("SELECT active FROM kinship_options WHERE id = ?", Boolean.class, deleted)).isFalse();
        assertThat(create.get().json().path("assigned_worker_sub").asString()).isEqualTo("w-2");
    }

    @Test
    void shouldAnswerEveryWriteWithTheAssignmentRevisionItWasMadeUnderAlsoWithoutTheHeader() {
        UUID caseId = Cases.assignedTo(jdbc, "w-2", "s-1", 7);

        Reply placement = api.post("/cases/" + caseId + "/placements", newWorker, "{}");
        Reply placementPatch = api.patch("/placements/" + placement.json().path("id").asString(), newWorker, placement.etag(),
                "{\"start_date\": \"2026-01-02\"}");
        Reply option = api.post("/cases/" + caseId + "/kinship-options", newWorker,
                "{\"relative_name\": \"Ann\", \"relationship\": \"aunt\"}");
        Reply optionPatch = api.patch("/kinship-options/" + option.json().path("id").asString(), newWorker, option.etag(),
                "{\"approved\": true}");
        Reply optionDelete = api.delete("/kinship-options/" + option.json().path("id").asString(), newWorker, optionPatch.etag());

        for (Reply write : List.of(placement, placementPatch, option, optionPatch, optionDelete)) {
            assertThat(write.status()).as(write.toString()).isIn(200, 201, 204);
            assertThat(write.header("Assignment-Revision")).as(write.toString()).contains("7");
        }
    }

    @Test
    void shouldAnswer409ProjectionBehindAndWriteNothingWhenTheRevisionDoesNotLand() {
        UUID caseId = Cases.assignedTo(jdbc, "w-2", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-2").supervisor("s-1").revision(1).insert(jdbc);

        Reply waited = api.send(ApiClient.request("PATCH", "/placements/" + placement).token(newWorker)
                .ifMatch(TestETags.placement(placement, 1)).json("{\"start_date\": \"2026-01-02\"}")
                .header("Min-Assignment-Revision", "3").header("Prefer", "wait=1"));
        Reply atOnce = api.send(ApiClient.request("POST", "/cases/" + UUID.randomUUID() + "/placements").token(newWorker)
                .json("{}").header("Min-Assignment-Revision", "0"));

        assertThat(waited.status()).as(waited.toString()).isEqualTo(409);
        assertThat(waited.code()).isEqualTo("PROJECTION_BEHIND");
        assertThat(waited.json().path("current_revision").asLong()).isEqualTo(1);
        assertThat(waited.header("Retry-After")).isPresent();
        assertThat(atOnce.status()).as(atOnce.toString()).isEqualTo(409);
        assertThat(atOnce.json().path("current_revision").isNull()).isTrue();
        assertThat(jdbc.queryForObject("SELECT row_version FROM placements WHERE id = ?", Long.class, placement)).isEqualTo(1L);
    }

    @Test
    void shouldNeverWaitForACaseOfAnotherJurisdiction() {
        UUID texan = Cases.assignedTo(jdbc, "w-2", "s-1", 1, "texas");

        Reply reply = api.send(ApiClient.request("POST", "/cases/" + texan + "/placements").token(newWorker).json("{}")
                .header("Min-Assignment-Revision", "5").header("Prefer", "wait=10"));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(403);
        assertThat(reply.body()).isEmpty();
    }

    @Test
    void shouldRefuseMalformedHeadersWith400() {
        UUID caseId = Cases.assignedTo(jdbc, "w-2", "s-1", 1);
        record Bad(String minRevision, String prefer, String field) {
        }
        for (Bad bad : List.of(new Bad("x", null, "Min-Assignment-Revision"), new Bad("-1", null, "Min-Assignment-Revision"),
                new Bad("", null, "Min-Assignment-Revision"), new Bad("99999999999999999999", null, "Min-Assignment-Revision"),
                new Bad("1", "wait=11", "Prefer"), new Bad("1", "wait=-1", "Prefer"), new Bad("1", "wait=1.5", "Prefer"),
                new Bad("1", "wait=1, wait=2", "Prefer"))) {
            ApiClient.Request request = ApiClient.request("POST", "/cases/" + caseId + "/placements").token(newWorker)
                    .json("{}").header("Min-Assignment-Revision", bad.minRevision());
            if (bad.prefer() != null) {
                request.header("Prefer", bad.prefer());
            }
            Reply reply = api.send(request);
            assertThat(reply.status()).as(bad + " " + reply).isEqualTo(400);
            assertThat(reply.code()).isEqualTo("VALIDATION_FAILED");
            assertThat(reply.json().path("errors").get(0).path("field").asString()).isEqualTo(bad.field());
        }
        Reply home = api.send(ApiClient.request("POST", "/foster-homes").token(TestTokens.admin("a-1").token())
                .json("{\"name\": \"Oak\", \"license_number\": \"L-1\", \"admin_unit\": \"u\"}")
                .header("Min-Assignment-Revision", "1"));
        assertThat(home.status()).as(home.toString()).isEqualTo(400);
    }

    @Test
    void shouldRefuseAMalformedPreferWaitWith400AlsoOnAWriteWithoutMinAssignmentRevision() {
        // Given a case of the caller's with a placement and a kinship option
        UUID caseId = Cases.assignedTo(jdbc, "w-2", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-2").supervisor("s-1").revision(1).insert(jdbc);
        UUID option = Rows.kinshipOption(caseId).worker("w-2").supervisor("s-1").revision(1).insert(jdbc);

        for (String prefer : List.of("wait=soon", "wait=-1", "wait=11", "wait=1.5", "wait=", "wait=1, wait=2",
                "respond-async, WAIT = 99")) {
            // When each write carries the malformed wait, without Min-Assignment-Revision
            for (ApiClient.Request write : List.of(
                    ApiClient.request("POST", "/cases/" + caseId + "/kinship-options").token(newWorker)
                            .json("{\"relative_name\": \"Ann\", \"relationship\": \"aunt\"}"),
                    ApiClient.request("PATCH", "/placements/" + placement).token(newWorker)
                            .ifMatch(TestETags.placement(placement, 1)).json("{\"start_date\": \"2026-01-02\"}"),
                    ApiClient.request("DELETE", "/kinship-options/" + option).token(newWorker)
                            .ifMatch(TestETags.kinshipOption(option, 1)))) {
                Reply reply = api.send(write.header("Prefer", prefer));

                // Then it is refused naming Prefer, not carried out as if the wait had not been asked for
                assertThat(reply.status()).as(write + " Prefer: " + prefer + " " + reply).isEqualTo(400);
                assertThat(reply.code()).isEqualTo("VALIDATION_FAILED");
                assertThat(reply.json().path("errors").get(0).path("field").asString()).isEqualTo("Prefer");
            }
        }
        assertThat(jdbc.queryForObject("SELECT count(*) FROM kinship_options WHERE case_id = ?", Long.class, caseId))
                .as("nothing created, nothing deleted").isEqualTo(1L);
        assertThat(jdbc.queryForObject("SELECT row_version FROM placements WHERE id = ?", Long.class, placement)).isEqualTo(1L);
    }

    @Test
    void shouldAcceptPreferencesOtherThanWaitWithOrWithoutMinAssignmentRevision() {
        UUID caseId = Cases.assignedTo(jdbc, "w-2", "s-1", 1);
        String option = "{\"relative_name\": \"Ann\", \"relationship\": \"aunt\"}";

        Reply without = api.send(ApiClient.request("POST", "/cases/" + caseId + "/kinship-options").token(newWorker)
                .json(option).header("Prefer", "return=minimal, waitress=seven, handling=lenient; strict"));
        Reply wellFormedWaitAlone = api.send(ApiClient.request("POST", "/cases/" + caseId + "/kinship-options")
                .token(newWorker).json(option).header("Prefer", "respond-async, wait=10"));
        Reply with = api.send(ApiClient.request("POST", "/cases/" + caseId + "/kinship-options").token(newWorker)
                .json(option).header("Min-Assignment-Revision", "1").header("Prefer", "waitress=seven, return=minimal"));

        assertThat(without.status()).as(without.toString()).isEqualTo(201);
        assertThat(wellFormedWaitAlone.status()).as("nothing to wait for: " + wellFormedWaitAlone).isEqualTo(201);
        assertThat(with.status()).as(with.toString()).isEqualTo(201);
    }

    private void reassign(UUID caseId, String worker, long revision) {
        transaction.executeWithoutResult(status -> writer.apply(List.of(
                AssignmentUpdate.changed(caseId, worker, "s-1", revision).withJurisdiction(Cases.JURISDICTION))));
    }

    private void awaitWaiters(int count) {
        Awaitility.await("requests waiting for the projection").atMost(Duration.ofSeconds(30))
                .until(() -> meters.get("api.projection.waiters").gauge().value() >= count);
    }
}
