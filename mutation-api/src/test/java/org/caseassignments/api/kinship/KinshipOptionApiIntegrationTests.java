package org.caseassignments.api.kinship;

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
class KinshipOptionApiIntegrationTests {

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
    void shouldCreateReadAndUpdateAKinshipOptionOfAnAssignedCase() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 2);
        String worker = TestTokens.caseworker("w-1").token();

        Reply created = api.post("/cases/" + caseId + "/kinship-options", worker,
                "{\"relative_name\": \"Ada Lovelace\", \"relationship\": \"aunt\"}");
        String id = created.text("id");
        Reply updated = api.patch("/kinship-options/" + id, worker, created.etag(),
                "{\"approved\": true, \"relationship\": \"great-aunt\"}");
        Reply read = api.get("/kinship-options/" + id, worker);

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.header("Location")).hasValue("/kinship-options/" + id);
        assertThat(created.json().path("approved").asBoolean()).isFalse();
        assertThat(created.text("assigned_worker_sub")).isEqualTo("w-1");
        assertThat(updated.status()).as(updated.toString()).isEqualTo(200);
        assertThat(updated.etag()).isEqualTo(TestETags.kinshipOption(UUID.fromString(id), 2));
        assertThat(read.etag()).isEqualTo(updated.etag());
        assertThat(read.json().path("approved").asBoolean()).isTrue();
        assertThat(read.text("relationship")).isEqualTo("great-aunt");
        assertThat(read.text("relative_name")).isEqualTo("Ada Lovelace");
    }

    @Test
    void shouldSoftDeleteAndThenTreatTheOptionAsGoneEverywhere() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID deleted = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        UUID kept = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        String worker = TestTokens.caseworker("w-1").token();

        Reply delete = api.delete("/kinship-options/" + deleted, worker, TestETags.kinshipOption(deleted, 1));

        assertThat(delete.status()).isEqualTo(204);
        assertThat(delete.etag()).isEqualTo(TestETags.kinshipOption(deleted, 2));
        assertThat(delete.body()).isEmpty();
        assertThat(jdbc.queryForMap("SELECT active, deleted_at IS NOT NULL AS stamped FROM kinship_options WHERE id = ?",
                deleted)).containsEntry("active", false).containsEntry("stamped", true);
        assertThat(api.get("/kinship-options/" + deleted, worker).code()).isEqualTo("NOT_FOUND");
        assertThat(api.patch("/kinship-options/" + deleted, worker, delete.etag(), "{\"approved\": true}").code())
                .isEqualTo("NOT_FOUND");
        assertThat(api.delete("/kinship-options/" + deleted, worker, delete.etag()).code()).isEqualTo("NOT_FOUND");
        assertThat(api.get("/cases/" + caseId + "/kinship-options", worker).json().path("items").valueStream()
                .map(option -> option.path("id").asString())).containsExactly(kept.toString());
    }

    @Test
    void shouldAuthorizeADeleteAsAnUpdate() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID option = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);

        String etag = TestETags.kinshipOption(option, 1);
        Reply stranger = api.delete("/kinship-options/" + option, TestTokens.caseworker("w-2").token(), etag);
        Reply countyDirector = api.delete("/kinship-options/" + option,
                TestTokens.countyDirector("d-1", "unit-1").token(), etag);
        Reply supervisor = api.delete("/kinship-options/" + option, TestTokens.supervisor("s-9").token(), etag);

        assertThat(stranger.status()).isEqualTo(403);
        assertThat(countyDirector.status()).isEqualTo(403);
        assertThat(supervisor.status()).isEqualTo(204);
    }
}
