package org.caseassignments.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
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
