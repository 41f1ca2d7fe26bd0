package org.caseassignments.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.caseassignments.api.policy.ResourceType;
import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Backends;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.OpenTransaction;
import org.caseassignments.api.testsupport.Race;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/** ETags over HTTP: a client can only name a version it has read. */
@ApiIntegrationTest
class EntityTagsIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final Backends backends = new Backends(DB.jdbc());
    private final String admin = TestTokens.admin("a-1").token();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldAnswer412ToAnIfMatchThatGuessesSmallVersionNumbers() {
        UUID home = Rows.fosterHome().insert(jdbc);

        Reply guessed = api.patch("/foster-homes/" + home, admin, "\"0\", \"1\", \"2\", \"3\"", "{\"name\": \"Guessed\"}");

        assertThat(guessed.status()).as(guessed.toString()).isEqualTo(412);
        assertThat(guessed.code()).isEqualTo("PRECONDITION_FAILED");
        assertThat(name(home)).isEqualTo("Maple House");
        Reply read = api.get("/foster-homes/" + home, admin);
        Reply written = api.patch("/foster-homes/" + home, admin, "\"1\", " + read.etag(), "{\"name\": \"Read first\"}");
        assertThat(written.status()).as(written.toString()).isEqualTo(200);
        assertThat(name(home)).isEqualTo("Read first");
    }

    @Test
    void shouldAnswerTheSameUnguessableTagForTheSameVersionAndANewOneAfterAWrite() {
        Reply created = api.post("/foster-homes", admin,
                "{\"name\": \"Oak\", \"license_number\": \"GA-ETAG-1\", \"admin_unit\": \"unit-1\"}");
        String path = "/foster-homes/" + created.text("id");
        Reply read = api.get(path, admin);
        Reply renamed = api.patch(path, admin, read.etag(), "{\"name\": \"Oak Two\"}");

        assertThat(created.etag()).matches("\"[A-Za-z0-9_-]{22}\"").isNotEqualTo("\"1\"");
        assertThat(read.etag()).isEqualTo(created.etag());
        assertThat(renamed.etag()).isNotEqualTo(read.etag()).isEqualTo(api.get(path, admin).etag());
    }

    @Test
    void shouldAnswer412ToTheTagOfAnotherResourceOrOfAnOlderVersion() {
        UUID home = Rows.fosterHome().insert(jdbc);
        UUID other = Rows.fosterHome().insert(jdbc);
        String otherTag = api.get("/foster-homes/" + other, admin).etag();
        String firstTag = api.get("/foster-homes/" + home, admin).etag();
        Reply renamed = api.patch("/foster-homes/" + home, admin, firstTag, "{\"name\": \"Renamed\"}");

        Reply withOthers = api.patch("/foster-homes/" + home, admin, otherTag, "{\"name\": \"Other's tag\"}");
        Reply withOlder = api.patch("/foster-homes/" + home, admin, firstTag, "{\"name\": \"Old tag\"}");

        assertThat(renamed.status()).isEqualTo(200);
        assertThat(withOthers.code()).isEqualTo("PRECONDITION_FAILED");
        assertThat(withOlder.code()).isEqualTo("PRECONDITION_FAILED");
        assertThat(name(home)).isEqualTo("Renamed");
    }

    /**
     * The interleaving of issue 12: a county director of unit-1 reads a home (version 1); an admin
     * moves it to unit-2 (version 2) while the director's PATCH waits for the row lock, its pre-read
     * and decision made on version 1. The director lists the tag they read and a guess at the next
     * version: no tag of version 2 can be guessed, so nothing is written. (A compare of the
     * policy-visible fields under the lock would answer 409 before If-Match is checked; either
     * refusal writes nothing.)
     */
    @Test
    void shouldRefuseADirectorWhoseIfMatchGuessesTheVersionAMoveOutOfTheirUnitProduces() {
        UUID home = Rows.fosterHome().adminUnit("unit-1").insert(jdbc);
        String director = TestTokens.countyDirector("d-1", "unit-1").token();
        String read = api.get("/foster-homes/" + home, director).etag();

        Reply raced;
        try (OpenTransaction move = OpenTransaction.begin(DB.dataSource(), tx -> tx.update(
                "UPDATE foster_homes SET admin_unit = 'unit-2', row_version = row_version + 1 WHERE id = ?", home))
                .awaitWork()) {
            raced = Race.commitWhileItWaits(api, backends, move, ApiClient.request("PATCH", "/foster-homes/" + home)
                    .token(director).ifMatch(read + ", \"2\"").json("{\"name\": \"Taken by unit-1\"}"));
        }

        assertThat(raced.status()).as(raced.toString()).isIn(409, 412);
        assertThat(jdbc.queryForMap("SELECT name, admin_unit, row_version FROM foster_homes WHERE id = ?", home))
                .containsEntry("name", "Maple House")
                .containsEntry("admin_unit", "unit-2")
                .containsEntry("row_version", 2L);
    }

    /**
     * An operator's UPDATE in SQL that says nothing of the version (the step of docs/backfill.md, a correction by
     * hand): the database moves the version, so the tag read before it is neither current (412 on If-Match) nor
     * the body's (no 304 on If-None-Match).
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            foster_homes    | /foster-homes/    | UPDATE foster_homes SET name = 'Fixed by hand' WHERE id = ?             | {"name": "Late"}
            placements      | /placements/      | UPDATE placements SET start_date = DATE '2026-03-01' WHERE id = ?       | {"end_date": "2027-01-01"}
            kinship_options | /kinship-options/ | UPDATE kinship_options SET relationship = 'grandmother' WHERE id = ? | {"relative_name": "Late"}
            """)
    void shouldMakeTheTagReadBeforeADirectSqlUpdateStale(String table, String resource, String directUpdate,
                                                         String patch) {
        UUID id = rowOf(table);
        String path = resource + id;
        String before = api.get(path, admin).etag();

        jdbc.update(directUpdate, id);

        assertStale(path, before, patch);
        assertThat(jdbc.queryForObject("SELECT row_version FROM " + table + " WHERE id = ?", Long.class, id))
                .isEqualTo(2L);
    }

    /** The API's own write moves the version once, not once for its statement and again for the database. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            foster_homes    | /foster-homes/    | {"name": "Once"}
            placements      | /placements/      | {"end_date": "2027-01-01"}
            kinship_options | /kinship-options/ | {"relative_name": "Once"}
            """)
    void shouldMoveTheVersionByOneForEachWriteOfTheApi(String table, String resource, String patch) {
        UUID id = rowOf(table);
        String path = resource + id;

        Reply written = api.patch(path, admin, api.get(path, admin).etag(), patch);

        assertThat(written.status()).as(written.toString()).isEqualTo(200);
        assertThat(jdbc.queryForObject("SELECT row_version FROM " + table + " WHERE id = ?", Long.class, id))
                .isEqualTo(2L);
        assertThat(api.get(path, admin).etag()).isEqualTo(written.etag());
    }

    /**
     * A home's body carries its ACTIVE placements, which change with each activation and end in it while the home's
     * row is not written: a tag read before either never answers 304 over the new count.
     */
    @Test
    void shouldAnswerTheNewCountNot304AfterAPlacementIsActivatedInTheHomeAndAfterItEnds() {
        EmptyHome read = emptyHomeNamedByAProposal();

        Reply activated = activate(read.placement());
        Reply occupied = ifNoneMatch(read.path(), read.tag());
        Reply ended = api.patch("/placements/" + read.placement(), admin, activated.etag(), "{\"status\": \"ENDED\"}");
        Reply left = ifNoneMatch(read.path(), occupied.etag());

        assertThat(activated.status()).as(activated.toString()).isEqualTo(200);
        assertThat(occupied.status()).as(occupied.toString()).isEqualTo(200);
        assertThat(occupied.json().path("active_placements").asInt()).isEqualTo(1);
        assertThat(occupied.etag()).isNotEqualTo(read.tag());
        assertThat(ended.status()).as(ended.toString()).isEqualTo(200);
        assertThat(left.status()).as(left.toString()).isEqualTo(200);
        assertThat(left.json().path("active_placements").asInt()).isZero();
        assertThat(left.etag()).isNotEqualTo(occupied.etag());
    }

    /** The tag names the count the client saw: a write of the home with a tag read before the count moved is a 412. */
    @Test
    void shouldAnswer412ToAHomePatchWithATagReadBeforeAPlacementWasActivatedInIt() {
        EmptyHome read = emptyHomeNamedByAProposal();
        Reply activated = activate(read.placement());

        Reply written = api.patch(read.path(), admin, read.tag(), "{\"capacity\": 1}");

        assertThat(activated.status()).as(activated.toString()).isEqualTo(200);
        assertThat(written.status()).as(written.toString()).isEqualTo(412);
        assertThat(written.code()).isEqualTo("PRECONDITION_FAILED");
        assertThat(jdbc.queryForObject("SELECT capacity FROM foster_homes WHERE id = ?", Integer.class, read.home()))
                .isEqualTo(2);
    }

    /**
     * An activation holds the home's lock when the PATCH's locked re-read asks for it, and commits while the re-read
     * waits: the count compared is the one after the activation, so the tag read at the count before is a 412.
     */
    @Test
    void shouldAnswer412ToAHomePatchWhoseLockedReReadWaitedForAnActivationInTheHome() {
        EmptyHome read = emptyHomeNamedByAProposal();

        Reply raced;
        try (OpenTransaction activation = OpenTransaction.begin(DB.dataSource(), tx -> tx.update(
                "UPDATE placements SET status = 'ACTIVE' WHERE id = ?", read.placement())).awaitWork()) {
            raced = Race.commitWhileItWaits(api, backends, activation, ApiClient.request("PATCH", read.path())
                    .token(admin).ifMatch(read.tag()).json("{\"name\": \"Renamed over a placement\"}"));
        }

        assertThat(raced.status()).as(raced.toString()).isEqualTo(412);
        assertThat(raced.code()).isEqualTo("PRECONDITION_FAILED");
        assertThat(name(read.home())).isEqualTo("Maple House");
    }

    /**
     * A placement's and a kinship option's body shows its case's assignment from the projection, which a rebuild's swap
     * (here an UPDATE by SQL) changes without writing the row: the tag read before never answers 304 over the new
     * assignment, and a write naming it is a 412.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            placements      | /placements/      | {"end_date": "2027-01-01"}
            kinship_options | /kinship-options/ | {"relative_name": "Late"}
            """)
    void shouldMakeTheTagReadBeforeTheProjectionOfItsCaseChangedStale(String table, String resource, String patch) {
        UUID id = rowOf(table);
        String path = resource + id;
        String before = api.get(path, admin).etag();

        jdbc.update("UPDATE case_assignments SET supervisor_sub = 's-2', assignment_revision = 0 WHERE case_id = "
                + "(SELECT case_id FROM " + table + " WHERE id = ?)", id);

        assertThat(assertStale(path, before, patch).json().path("supervisor_sub").asText()).isEqualTo("s-2");
        assertThat(jdbc.queryForObject("SELECT row_version FROM " + table + " WHERE id = ?", Long.class, id))
                .isEqualTo(1L);
    }

    /**
     * What no write changes is tagged only when the body shows it: an empty home, and a row whose copy is its case's
     * projection, answer the tag of their version alone, the one clients held before V15.
     */
    @Test
    void shouldAnswerTheTagOfTheVersionAloneForAnEmptyHomeAndForARowWhoseCopyIsItsProjection() {
        UUID home = Rows.fosterHome().insert(jdbc);
        UUID placement = rowOf("placements");
        UUID option = rowOf("kinship_options");

        assertThat(api.get("/foster-homes/" + home, admin).etag()).isEqualTo(TestETags.of(ResourceType.FOSTER_HOME, home, 1));
        assertThat(api.get("/placements/" + placement, admin).etag()).isEqualTo(TestETags.placement(placement, 1));
        assertThat(api.get("/kinship-options/" + option, admin).etag()).isEqualTo(TestETags.kinshipOption(option, 1));
    }

    /** A home, a PROPOSED placement of a case naming it, and the home's path and tag as read while it is empty. */
    private record EmptyHome(UUID home, UUID placement, String path, String tag) {
    }

    private EmptyHome emptyHomeNamedByAProposal() {
        UUID home = Rows.fosterHome().insert(jdbc);
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).in(home).insert(jdbc);
        String path = "/foster-homes/" + home;
        return new EmptyHome(home, placement, path, api.get(path, admin).etag());
    }

    private Reply activate(UUID placement) {
        return api.patch("/placements/" + placement, admin, api.get("/placements/" + placement, admin).etag(),
                "{\"status\": \"ACTIVE\"}");
    }

    /** The tag read before is no longer the body's: If-None-Match answers the body (returned), If-Match a 412. */
    private Reply assertStale(String path, String before, String patch) {
        Reply conditional = ifNoneMatch(path, before);
        Reply written = api.patch(path, admin, before, patch);
        assertThat(conditional.status()).as(conditional.toString()).isEqualTo(200);
        assertThat(conditional.etag()).isNotEqualTo(before);
        assertThat(written.status()).as(written.toString()).isEqualTo(412);
        assertThat(written.code()).isEqualTo("PRECONDITION_FAILED");
        return conditional;
    }

    private Reply ifNoneMatch(String path, String tag) {
        return api.send(ApiClient.request("GET", path).token(admin).header("If-None-Match", tag));
    }

    private UUID rowOf(String table) {
        if (table.equals("foster_homes")) {
            return Rows.fosterHome().insert(jdbc);
        }
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        return (table.equals("placements") ? Rows.placement(caseId) : Rows.kinshipOption(caseId))
                .worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
    }

    private String name(UUID home) {
        return jdbc.queryForObject("SELECT name FROM foster_homes WHERE id = ?", String.class, home);
    }
}
