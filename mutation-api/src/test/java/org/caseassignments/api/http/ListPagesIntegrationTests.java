package org.caseassignments.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

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
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * A case's lists are paged by an opaque cursor, bounded by {@code api.lists.max-page-size}, and carry each
 * item's ETag, so a listed row can be written without reading it again (ADR-035).
 */
@ApiIntegrationTest
class ListPagesIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("api.lists.max-page-size", () -> "3");
    }

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final String worker = TestTokens.caseworker("w-1").token();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldPageACasesPlacementsInCreationOrderUntilTheCursorIsNull() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        List<UUID> created = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            created.add(Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc));
        }

        List<String> seen = new ArrayList<>();
        List<Integer> sizes = new ArrayList<>();
        String cursor = null;
        do {
            Reply page = api.get("/cases/" + caseId + "/placements?limit=2" + (cursor == null ? "" : "&cursor=" + cursor),
                    worker);
            assertThat(page.status()).as(page.toString()).isEqualTo(200);
            page.json().path("items").valueStream().forEach(item -> seen.add(item.path("id").asString()));
            sizes.add(page.json().path("items").size());
            cursor = page.text("next_cursor");
        } while (cursor != null);

        assertThat(sizes).containsExactly(2, 2, 1);
        assertThat(seen).containsExactlyElementsOf(created.stream().sorted(this::creationOrder).map(UUID::toString).toList());
    }

    @Test
    void shouldGiveEachListedPlacementTheETagThatAWriteAccepts() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).rowVersion(4).insert(jdbc);

        Reply list = api.send(ApiClient.request("GET", "/cases/" + caseId + "/placements").token(worker)
                .header("If-None-Match", "*"));
        JsonNode item = list.json().path("items").get(0);

        assertThat(list.status()).as("a list takes no conditional read: " + list).isEqualTo(200);
        assertThat(list.header("ETag")).as("a list is not one version: its items carry the tags").isEmpty();
        assertThat(item.path("etag").asString()).isEqualTo(TestETags.placement(placement, 4));
        Reply written = api.patch("/placements/" + placement, worker, item.path("etag").asString(),
                "{\"status\": \"CANCELLED\"}");
        assertThat(written.status()).as(written.toString()).isEqualTo(200);
        assertThat(written.json().path("etag").asString()).isEqualTo(written.etag());
    }

    @Test
    void shouldPageACasesKinshipOptionsWithTheirETags() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID first = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        UUID second = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        List<UUID> inOrder = byCreation(first, second);

        Reply one = api.get("/cases/" + caseId + "/kinship-options?limit=1", worker);
        Reply two = api.get("/cases/" + caseId + "/kinship-options?limit=1&cursor=" + one.text("next_cursor"), worker);

        assertThat(one.json().path("items").get(0).path("id").asString()).isEqualTo(inOrder.get(0).toString());
        assertThat(one.json().path("items").get(0).path("etag").asString())
                .isEqualTo(TestETags.kinshipOption(inOrder.get(0), 1));
        assertThat(two.json().path("items").get(0).path("id").asString()).isEqualTo(inOrder.get(1).toString());
        assertThat(two.text("next_cursor")).isNull();
    }

    @Test
    void shouldAnswerAtMostTheMaximumWithoutALimitAndRefuseALargerLimitOrAForeignCursor() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        for (int i = 0; i < 4; i++) {
            Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        }

        Reply unbounded = api.get("/cases/" + caseId + "/kinship-options", worker);
        Reply tooMany = api.get("/cases/" + caseId + "/placements?limit=4", worker);
        Reply none = api.get("/cases/" + caseId + "/placements?limit=0", worker);
        Reply forged = api.get("/cases/" + caseId + "/kinship-options?cursor=bm90LWEtY3Vyc29y", worker);

        assertThat(unbounded.json().path("items").size()).isEqualTo(3);
        assertThat(unbounded.text("next_cursor")).isNotNull();
        assertThat(tooMany.code()).isEqualTo("VALIDATION_FAILED");
        assertThat(tooMany.body()).contains("limit").contains("between 1 and 3");
        assertThat(none.code()).isEqualTo("VALIDATION_FAILED");
        assertThat(forged.code()).isEqualTo("VALIDATION_FAILED");
        assertThat(forged.body()).contains("cursor");
    }

    @Test
    void shouldRefuseAForeignOrUnknownCasesListsAsTheirSingleReadsAre() {
        // Given a texas case and a case the projection does not know, each with a placement and a kinship option
        UUID texan = Cases.assignedTo(jdbc, "w-1", "s-1", 1, "texas");
        UUID unknown = UUID.randomUUID();
        for (UUID caseId : List.of(texan, unknown)) {
            UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
            Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
            UUID option = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
            Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
            Reply onePlacement = api.get("/placements/" + placement, worker);
            Reply oneOption = api.get("/kinship-options/" + option, worker);

            // When a georgia caseworker lists them
            Reply placements = api.get("/cases/" + caseId + "/placements?limit=1", worker);
            Reply options = api.get("/cases/" + caseId + "/kinship-options?limit=1", worker);

            // Then each list answers as the single read of its rows does: 403, empty, no cursor
            assertThat(onePlacement.status()).isEqualTo(403);
            assertThat(oneOption.status()).isEqualTo(403);
            assertThat(placements.status()).as(placements.toString()).isEqualTo(onePlacement.status());
            assertThat(placements.body()).isEqualTo(onePlacement.body()).isEmpty();
            assertThat(options.status()).as(options.toString()).isEqualTo(oneOption.status());
            assertThat(options.body()).isEqualTo(oneOption.body()).isEmpty();
        }
    }

    @Test
    void shouldHandOutACursorThatRevealsNeitherTheIdNorTheTimeOfARow() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID first = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        UUID second = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        UUID last = byCreation(first, second).get(0);
        long micros = jdbc.queryForObject("SELECT (extract(epoch FROM created_at) * 1000000)::bigint FROM placements "
                + "WHERE id = ?", Long.class, last);

        String cursor = api.get("/cases/" + caseId + "/placements?limit=1", worker).text("next_cursor");

        String decoded = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.ISO_8859_1);
        byte[] idBytes = ByteBuffer.allocate(16).putLong(last.getMostSignificantBits())
                .putLong(last.getLeastSignificantBits()).array();
        byte[] timeBytes = ByteBuffer.allocate(8).putLong(micros).array();
        for (String text : List.of(cursor, decoded)) {
            assertThat(text).doesNotContain(last.toString()).doesNotContain(last.toString().replace("-", ""))
                    .doesNotContain(String.valueOf(micros)).doesNotContain(String.valueOf(micros / 1000))
                    .doesNotContain(new String(idBytes, StandardCharsets.ISO_8859_1))
                    .doesNotContain(new String(timeBytes, StandardCharsets.ISO_8859_1).substring(0, 6));
        }
    }

    @Test
    void shouldRefuseAForgedOrTamperedCursor() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        for (int i = 0; i < 3; i++) {
            Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        }
        String cursor = api.get("/cases/" + caseId + "/placements?limit=1", worker).text("next_cursor");
        // in the form a cursor once had: the time and id of a row, here one that does not exist
        String forged = Base64.getUrlEncoder().withoutPadding().encodeToString(
                ("1700000000000000:" + UUID.randomUUID()).getBytes(StandardCharsets.US_ASCII));

        for (String bad : List.of(forged, tampered(cursor, 0), tampered(cursor, cursor.length() / 2),
                tampered(cursor, cursor.length() - 2), cursor.substring(0, cursor.length() - 4), cursor + "AAAA")) {
            Reply reply = api.get("/cases/" + caseId + "/placements?limit=1&cursor=" + bad, worker);
            assertThat(reply.code()).as(bad + " " + reply).isEqualTo("VALIDATION_FAILED");
            assertThat(reply.json().path("errors").get(0).path("field").asString()).isEqualTo("cursor");
        }
    }

    @Test
    void shouldRefuseACursorOfAnotherCaseOrAnotherList() {
        UUID one = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID other = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        for (UUID caseId : List.of(one, other)) {
            for (int i = 0; i < 2; i++) {
                Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
                Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
            }
        }
        String placements = api.get("/cases/" + one + "/placements?limit=1", worker).text("next_cursor");
        String options = api.get("/cases/" + one + "/kinship-options?limit=1", worker).text("next_cursor");

        for (String misused : List.of("/cases/" + other + "/placements?cursor=" + placements,
                "/cases/" + one + "/kinship-options?cursor=" + placements,
                "/cases/" + one + "/placements?cursor=" + options,
                "/cases/" + other + "/kinship-options?cursor=" + options,
                "/cases/" + one + "/assignment/history?cursor=" + placements)) {
            Reply reply = api.get(misused, worker);
            assertThat(reply.code()).as(misused + " " + reply).isEqualTo("VALIDATION_FAILED");
        }
        assertThat(api.get("/cases/" + one + "/placements?cursor=" + placements, worker).status()).isEqualTo(200);
    }

    @Test
    void shouldAnswerARoleThatMayReadNoRecordOfACaseItsEmptyPageWithoutReadingTheList() {
        // Given a case with placements and kinship options, and an auditor, who reads none of either
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        for (int i = 0; i < 4; i++) {
            Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
            Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        }
        String auditor = TestTokens.subject("au-1").roles("auditor").token();
        Backends backends = new Backends(jdbc);

        for (String list : List.of("placements", "kinship_options")) {
            // When the auditor lists them while the list's table is locked
            Reply page;
            try (OpenTransaction lock = OpenTransaction.begin(DB.dataSource(),
                    tx -> tx.execute("LOCK TABLE " + list + " IN ACCESS EXCLUSIVE MODE")).awaitWork()) {
                page = backends.answeredWithoutWaitingFor(lock, api, ApiClient.request("GET",
                        "/cases/" + caseId + "/" + list.replace('_', '-') + "?limit=1").token(auditor));
            }

            // Then the case is decided (its own jurisdiction's) and the empty last page answered without a read
            assertThat(page.status()).as(list + " " + page).isEqualTo(200);
            assertThat(page.json().path("items").size()).isZero();
            assertThat(page.text("next_cursor")).isNull();
        }
    }

    @Test
    void shouldRefuseAQueryParameterAListDoesNotTakeInsteadOfListingUnfiltered() {
        // Given one of every list's rows
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID home = Rows.fosterHome().insert(jdbc);
        Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).in(home).insert(jdbc);
        Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        String admin = TestTokens.admin("a-1").token();
        String auditor = TestTokens.subject("au-1").roles("auditor").token();

        // When each list is asked with a parameter it does not take: misspelt, or another list's
        for (String[] asked : new String[][] {
                {"/foster-homes?licence_status=ACTIVE", admin, "licence_status"},
                {"/foster-homes/" + home + "/placements?statuss=ACTIVE&limit=1", admin, "statuss"},
                {"/cases/" + caseId + "/placements?status=ACTIVE", admin, "status"},
                {"/cases/" + caseId + "/kinship-options?approved=true", admin, "approved"},
                {"/cases/" + caseId + "/assignment/history?limitt=1", admin, "limitt"},
                {"/audit?resource=" + home, auditor, "resource"}}) {
            Reply reply = api.get(asked[0], asked[1]);

            // Then 400, naming it and what the list takes, instead of the unfiltered list
            assertThat(reply.status()).as(asked[0] + " " + reply).isEqualTo(400);
            assertThat(reply.code()).isEqualTo("VALIDATION_FAILED");
            assertThat(reply.json().path("errors").valueStream().map(error -> error.path("field").asString()))
                    .as(reply.toString()).containsExactly(asked[2]);
            assertThat(reply.text("detail")).contains("limit").contains("cursor");
        }

        // And the parameters each list takes, the paging's and the tracing headers, keep working
        for (String[] asked : new String[][] {
                {"/foster-homes?license_status=ACTIVE&admin_unit=unit-1&limit=1&", admin},
                {"/foster-homes/" + home + "/placements?status=PROPOSED&limit=1", admin},
                {"/cases/" + caseId + "/placements?limit=1", admin},
                {"/cases/" + caseId + "/kinship-options?limit=1", admin},
                {"/cases/" + caseId + "/assignment/history?limit=1", admin},
                {"/audit?resource_id=" + home + "&limit=1", auditor}}) {
            Reply reply = api.send(ApiClient.request("GET", asked[0]).token(asked[1]).header("X-Request-Id", "listed-1")
                    .header("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"));
            assertThat(reply.status()).as(asked[0] + " " + reply).isEqualTo(200);
        }
    }

    /** The cursor with its character at {@code at} replaced by another of the base64url alphabet. */
    private static String tampered(String cursor, int at) {
        char replacement = cursor.charAt(at) == 'A' ? 'B' : 'A';
        return cursor.substring(0, at) + replacement + cursor.substring(at + 1);
    }

    private int creationOrder(UUID a, UUID b) {
        return byCreation(a, b).get(0).equals(a) ? -1 : 1;
    }

    /** The two in the order the lists give: creation time, then id. */
    private List<UUID> byCreation(UUID a, UUID b) {
        return jdbc.queryForList("""
                SELECT id FROM (SELECT id, created_at FROM placements UNION ALL SELECT id, created_at FROM kinship_options) rows
                 WHERE id IN (?, ?) ORDER BY created_at, id""", UUID.class, a, b);
    }
}
