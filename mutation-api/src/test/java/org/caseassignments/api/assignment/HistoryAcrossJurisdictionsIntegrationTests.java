package org.caseassignments.api.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.store.SeenRevision;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.node.ObjectNode;

/**
 * Each history entry belongs to the jurisdiction in force at its revision (decision 40): a case that moved from
 * texas to georgia shows georgia only its own period, and texas only its own, through the history, {@code as_of}
 * and {@code as_of_revision}; paging and "none in force" say nothing of the entries hidden. The history is written
 * by the projector's own guarded writer.
 */
@ApiIntegrationTest
class HistoryAcrossJurisdictionsIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    private static final Instant T0 = Instant.parse("2026-04-01T09:00:00Z");

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final AssignmentWriter writer = new AssignmentWriter(jdbc);
    private final String georgia = TestTokens.caseworker("ga-1").jurisdiction("georgia").token();
    private final String texas = TestTokens.caseworker("tx-1").jurisdiction("texas").token();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldShowTheNewJurisdictionNoneOfTheFormerJurisdictionsEntries() {
        UUID caseId = movedFromTexasToGeorgia();
        String base = "/cases/" + caseId + "/assignment";

        assertThat(revisions(api.get(base + "/history", georgia))).containsExactly(3L, 2L);
        assertThat(pagesOfOne(base, georgia)).as("the texas entries below leave no next page")
                .containsExactly(List.of(3L), List.of(2L));
        assertThat(inForce(base + "?as_of_revision=3", georgia)).isEqualTo("w-3@3");
        assertThat(inForce(base + "?as_of_revision=2", georgia)).isEqualTo("w-2@2");
        assertThat(inForce(base + "?as_of=" + T0.plus(150, ChronoUnit.MINUTES), georgia)).isEqualTo("w-2@2");
        for (String texasPeriod : List.of("?as_of_revision=1", "?as_of_revision=0",
                "?as_of=" + T0.plus(90, ChronoUnit.MINUTES), "?as_of=" + T0)) {
            Reply reply = api.get(base + texasPeriod, georgia);
            assertThat(reply.status()).as(texasPeriod + " " + reply).isEqualTo(404);
            assertThat(reply.code()).isEqualTo("NOT_FOUND");
        }
    }

    @Test
    void shouldAnswerAnEntryInForceThatIsHiddenExactlyAsOneThatNeverWas() {
        // Given a moved case, and a georgia case whose history starts at revision 2
        UUID moved = movedFromTexasToGeorgia();
        UUID younger = UUID.randomUUID();
        record(younger, "georgia", 2, 3);

        // When georgia asks each for revision 1, and for a time before revision 2
        Reply hidden = api.get("/cases/" + moved + "/assignment?as_of_revision=1", georgia);
        Reply none = api.get("/cases/" + younger + "/assignment?as_of_revision=1", georgia);
        Reply hiddenAt = api.get("/cases/" + moved + "/assignment?as_of=" + T0.plus(90, ChronoUnit.MINUTES), georgia);
        Reply noneAt = api.get("/cases/" + younger + "/assignment?as_of=" + T0.plus(90, ChronoUnit.MINUTES), georgia);

        // Then the answers differ in nothing but the case's id and the request's own ids
        assertThat(hidden.status()).isEqualTo(404);
        assertThat(comparable(hidden, moved)).isEqualTo(comparable(none, younger));
        assertThat(hiddenAt.status()).isEqualTo(404);
        assertThat(comparable(hiddenAt, moved)).isEqualTo(comparable(noneAt, younger));
    }

    @Test
    void shouldLetTheFormerJurisdictionReadItsOwnPeriodAndNothingAfterIt() {
        UUID caseId = movedFromTexasToGeorgia();
        String base = "/cases/" + caseId + "/assignment";

        assertThat(revisions(api.get(base + "/history", texas))).containsExactly(1L, 0L);
        assertThat(pagesOfOne(base, texas)).containsExactly(List.of(1L), List.of(0L));
        assertThat(inForce(base + "?as_of_revision=1", texas)).isEqualTo("w-1@1");
        assertThat(inForce(base + "?as_of=" + T0.plus(30, ChronoUnit.MINUTES), texas)).isEqualTo("w-0@0");
        assertThat(api.get(base + "?as_of_revision=2", texas).status()).isEqualTo(404);
        assertThat(api.get(base + "?as_of=" + T0.plus(5, ChronoUnit.HOURS), texas).status()).isEqualTo(404);
        assertThat(api.get(base, texas).status()).as("the case now is georgia's").isEqualTo(403);
    }

    @Test
    void shouldDenyAJurisdictionThatNeverHeldTheCaseAsBefore() {
        UUID caseId = UUID.randomUUID();
        record(caseId, "georgia", 0, 1);
        String base = "/cases/" + caseId + "/assignment";

        for (String query : List.of("/history", "?as_of_revision=1", "?as_of=" + T0.plus(5, ChronoUnit.HOURS))) {
            Reply reply = api.get(base + query, texas);
            assertThat(reply.status()).as(query + " " + reply).isEqualTo(403);
            assertThat(reply.body()).isEmpty();
        }
    }

    @Test
    void shouldShowNobodyAnEntryWhoseJurisdictionIsNotKnown() {
        // Given revisions 0 and 1 carrying no jurisdiction, and 2 carrying georgia
        UUID caseId = UUID.randomUUID();
        record(caseId, null, 0, 1);
        record(caseId, "georgia", 2, 2);
        String base = "/cases/" + caseId + "/assignment";

        assertThat(revisions(api.get(base + "/history", georgia))).containsExactly(2L);
        assertThat(api.get(base + "?as_of_revision=1", georgia).status()).isEqualTo(404);
        assertThat(api.get(base + "/history", texas).status()).isEqualTo(403);
    }

    @Test
    void shouldAgreeWithTheProjectionWhenALateLowerRevisionCarriesAnotherJurisdiction() {
        // Given a case created in texas, revision 4 without a jurisdiction applied, then revision 3 carrying georgia
        // arriving late, below the projection's revision, so the projection stays texas's
        UUID caseId = UUID.randomUUID();
        record(caseId, "texas", 0, 0);
        record(caseId, null, 4, 4);
        record(caseId, "georgia", 3, 3);
        String base = "/cases/" + caseId + "/assignment";
        assertThat(inForce(base, texas)).isEqualTo("w-4@4");

        // Then texas, which owns the case, reads all of it, the current assignment too; georgia reads nothing
        assertThat(revisions(api.get(base + "/history", texas))).containsExactly(4L, 3L, 0L);
        assertThat(inForce(base + "?as_of_revision=4", texas)).isEqualTo("w-4@4");
        assertThat(inForce(base + "?as_of_revision=3", texas)).isEqualTo("w-3@3");
        for (String query : List.of("", "/history", "?as_of_revision=4", "?as_of_revision=3",
                "?as_of=" + T0.plus(5, ChronoUnit.HOURS))) {
            Reply reply = api.get(base + query, georgia);
            assertThat(reply.status()).as(query + " " + reply).isEqualTo(403);
            assertThat(reply.body()).isEmpty();
        }
    }

    @Test
    void shouldLetTheJurisdictionASnapshotGaveTheCaseReadEntriesThatCarriedNone() {
        // Given entries that carried no jurisdiction, then a snapshot row giving the case texas at an equal revision
        UUID caseId = UUID.randomUUID();
        record(caseId, null, 0, 1);
        writer.apply(List.of(AssignmentUpdate.snapshot(caseId, "w-1", "s", 1).withJurisdiction("texas")));
        String base = "/cases/" + caseId + "/assignment";

        // Then texas reads the whole history, as it reads the case
        assertThat(inForce(base, texas)).isEqualTo("w-1@1");
        assertThat(revisions(api.get(base + "/history", texas))).containsExactly(1L, 0L);
        assertThat(inForce(base + "?as_of_revision=0", texas)).isEqualTo("w-0@0");
        assertThat(api.get(base + "/history", georgia).status()).isEqualTo(403);
    }

    @Test
    void shouldGiveTheFinalPeriodToTheJurisdictionASnapshotCorrectedTheCaseTo() {
        // Given a texas case whose projection a snapshot row corrects to georgia at the same revision
        UUID caseId = UUID.randomUUID();
        record(caseId, "texas", 0, 1);
        writer.apply(List.of(AssignmentUpdate.snapshot(caseId, "w-1", "s", 1).withJurisdiction("georgia")));
        String base = "/cases/" + caseId + "/assignment";

        // Then georgia reads the final period, which is all of it, and texas reads nothing
        assertThat(inForce(base, georgia)).isEqualTo("w-1@1");
        assertThat(revisions(api.get(base + "/history", georgia))).containsExactly(1L, 0L);
        assertThat(inForce(base + "?as_of_revision=0", georgia)).isEqualTo("w-0@0");
        for (String query : List.of("/history", "?as_of_revision=1", "?as_of_revision=0")) {
            Reply reply = api.get(base + query, texas);
            assertThat(reply.status()).as(query + " " + reply).isEqualTo(403);
            assertThat(reply.body()).isEmpty();
        }
    }

    @Test
    void shouldLetTheOwnerReadEntriesLeftWithNoCarriedJurisdictionWhenTheCreatedEntryWasPurged() {
        // Given a case created in texas whose created entry was purged before the revisions after it arrived
        UUID caseId = UUID.randomUUID();
        record(caseId, "texas", 0, 0);
        jdbc.update("DELETE FROM case_assignment_history WHERE case_id = ? AND assignment_revision = 0", caseId);
        record(caseId, null, 1, 2);
        String base = "/cases/" + caseId + "/assignment";

        // Then texas, which owns the case, reads the entries left
        assertThat(revisions(api.get(base + "/history", texas))).containsExactly(2L, 1L);
        assertThat(inForce(base + "?as_of_revision=2", texas)).isEqualTo("w-2@2");
        assertThat(inForce(base + "?as_of=" + T0.plus(90, ChronoUnit.MINUTES), texas)).isEqualTo("w-1@1");
        assertThat(api.get(base + "/history", georgia).status()).isEqualTo(403);
    }

    @Test
    void shouldRefuseAHistoryCursorOfAnotherCaseOrJurisdiction() {
        UUID one = movedFromTexasToGeorgia();
        UUID other = movedFromTexasToGeorgia();
        String cursor = api.get("/cases/" + one + "/assignment/history?limit=1", georgia).text("next_cursor");

        Reply otherCase = api.get("/cases/" + other + "/assignment/history?cursor=" + cursor, georgia);
        Reply otherJurisdiction = api.get("/cases/" + one + "/assignment/history?cursor=" + cursor, texas);

        assertThat(otherCase.code()).as(otherCase.toString()).isEqualTo("VALIDATION_FAILED");
        assertThat(otherCase.body()).contains("cursor");
        assertThat(otherJurisdiction.code()).as(otherJurisdiction.toString()).isEqualTo("VALIDATION_FAILED");
    }

    /** Revisions 0 (texas, case.created) and 1 (none) in one batch, 2 (georgia) and 3 (none) in another, an hour apart. */
    private UUID movedFromTexasToGeorgia() {
        UUID caseId = UUID.randomUUID();
        List<SeenRevision> texasPeriod = List.of(
                seen(AssignmentUpdate.created(caseId, "w-0", "s").withJurisdiction("texas"), 0),
                seen(AssignmentUpdate.changed(caseId, "w-1", "s", 1), 1));
        writer.apply(texasPeriod.stream().map(SeenRevision::update).toList(), texasPeriod);
        List<SeenRevision> georgiaPeriod = List.of(
                seen(AssignmentUpdate.changed(caseId, "w-2", "s", 2).withJurisdiction("georgia"), 2),
                seen(AssignmentUpdate.changed(caseId, "w-3", "s", 3), 3));
        writer.apply(georgiaPeriod.stream().map(SeenRevision::update).toList(), georgiaPeriod);
        return caseId;
    }

    /** Revisions {@code from} to {@code to}, the first carrying the jurisdiction. */
    private void record(UUID caseId, String jurisdiction, long from, long to) {
        List<SeenRevision> seen = new ArrayList<>();
        for (long revision = from; revision <= to; revision++) {
            AssignmentUpdate update = AssignmentUpdate.changed(caseId, "w-" + revision, "s", revision);
            seen.add(seen(revision == from ? update.withJurisdiction(jurisdiction) : update, revision));
        }
        writer.apply(seen.stream().map(SeenRevision::update).toList(), seen);
    }

    private static SeenRevision seen(AssignmentUpdate update, long hours) {
        return new SeenRevision(update, T0.plus(hours, ChronoUnit.HOURS));
    }

    private String inForce(String path, String token) {
        Reply reply = api.get(path, token);
        assertThat(reply.status()).as(path + " " + reply).isEqualTo(200);
        return reply.json().path("assigned_worker_sub").asString() + "@" + reply.json().path("assignment_revision").asLong();
    }

    /** The revisions of each page of the history read one entry a page, following next_cursor until it is null. */
    private List<List<Long>> pagesOfOne(String base, String token) {
        List<List<Long>> pages = new ArrayList<>();
        String cursor = null;
        do {
            Reply page = api.get(base + "/history?limit=1" + (cursor == null ? "" : "&cursor=" + cursor), token);
            pages.add(revisions(page));
            cursor = page.text("next_cursor");
        } while (cursor != null && pages.size() < 10);
        return pages;
    }

    private static List<Long> revisions(Reply page) {
        assertThat(page.status()).as(page.toString()).isEqualTo(200);
        List<Long> revisions = new ArrayList<>();
        page.json().path("items").forEach(item -> revisions.add(item.path("assignment_revision").asLong()));
        return revisions;
    }

    /** The problem document without what differs by request (its ids), the case's id replaced by a placeholder. */
    private static String comparable(Reply reply, UUID caseId) {
        ObjectNode body = (ObjectNode) reply.json().deepCopy();
        body.remove(List.of("request_id", "trace_id"));
        return reply.status() + " " + reply.contentType() + " " + body.toString().replace(caseId.toString(), "{case}");
    }
}
