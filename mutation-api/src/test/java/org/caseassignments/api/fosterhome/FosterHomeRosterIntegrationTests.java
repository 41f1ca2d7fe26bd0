package org.caseassignments.api.fosterhome;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;
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
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;

/**
 * The roster (decision 45): the homes of the caller's jurisdiction and the placements in one home, paged by sealed
 * cursors, each item with its ETag, and what a hostile caller tries against them.
 */
@ApiIntegrationTest
class FosterHomeRosterIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("api.lists.max-page-size", () -> "3");
    }

    @LocalServerPort
    int port;

    @Autowired
    DataSource pool;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final Backends backends = new Backends(jdbc);
    private final String admin = TestTokens.admin("a-1").token();
    private final String auditor = TestTokens.subject("au-1").roles("auditor").token();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        jdbc.execute("TRUNCATE placements, foster_homes");
    }

    @Test
    void shouldListOnlyTheCallersJurisdictionsHomesWithTheirETagsNeverCountingAnothersInThePaging() {
        // Given homes of Georgia, of Texas and of no jurisdiction, created interleaved
        List<UUID> georgian = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Rows.fosterHome().jurisdiction("texas").insert(jdbc);
            georgian.add(Rows.fosterHome().insert(jdbc));
            Rows.fosterHome().jurisdiction(null).insert(jdbc);
        }
        jdbc.update("UPDATE foster_homes SET name = 'Renamed' WHERE id = ?", georgian.get(1));
        long renamedVersion = jdbc.queryForObject("SELECT row_version FROM foster_homes WHERE id = ?", Long.class,
                georgian.get(1));

        // When a Georgia admin pages through the unfiltered roster, two at a time
        List<Reply> pages = pages("/foster-homes?limit=2", admin);

        // Then Georgia's three homes, in creation order, on two full pages: the others are not even skipped over
        assertThat(pages).extracting(page -> page.json().path("items").size()).containsExactly(2, 1);
        List<JsonNode> items = items(pages);
        assertThat(items).extracting(item -> item.path("id").asString())
                .containsExactlyElementsOf(inCreationOrder(georgian).stream().map(UUID::toString).toList());
        for (JsonNode item : items) {
            UUID id = UUID.fromString(item.path("id").asString());
            assertThat(item.path("etag").asString()).isEqualTo(TestETags.fosterHome(id, id.equals(georgian.get(1)) ? renamedVersion : 1));
            assertThat(item.path("etag").asString()).isEqualTo(api.get("/foster-homes/" + id, admin).etag());
        }
        Reply texan = api.get("/foster-homes", TestTokens.admin("tx-1").jurisdiction("texas").token());
        assertThat(texan.json().path("items").size()).isEqualTo(3);
        assertThat(texan.body()).doesNotContain(georgian.get(0).toString());
    }

    @Test
    void shouldListAnOccupiedHomeWithItsSingleReadsETagAndChangeItWhenAnotherChildMovesIn() {
        // Given a home with one ACTIVE placement and one PROPOSED
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID home = Rows.fosterHome().capacity(3).insert(jdbc);
        Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).status("ACTIVE").in(home).insert(jdbc);
        UUID proposed = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).in(home).insert(jdbc);
        String listed = api.get("/foster-homes", admin).json().path("items").get(0).path("etag").asString();
        assertThat(listed).isEqualTo(api.get("/foster-homes/" + home, admin).etag());

        // When the proposed placement is activated through the API
        Reply activated = api.patch("/placements/" + proposed, admin, api.get("/placements/" + proposed, admin).etag(),
                "{\"status\":\"ACTIVE\"}");
        assertThat(activated.status()).as(activated.toString()).isEqualTo(200);

        // Then the listed tag changes with the count, and the old one no longer answers 304
        JsonNode relisted = api.get("/foster-homes", admin).json().path("items").get(0);
        assertThat(relisted.path("active_placements").asInt()).isEqualTo(2);
        assertThat(relisted.path("etag").asString()).isNotEqualTo(listed)
                .isEqualTo(api.get("/foster-homes/" + home, admin).etag());
        Reply revalidated = api.send(ApiClient.request("GET", "/foster-homes/" + home).token(admin)
                .header("If-None-Match", listed));
        assertThat(revalidated.status()).as(revalidated.toString()).isEqualTo(200);
        assertThat(revalidated.json().path("active_placements").asInt()).isEqualTo(2);
    }

    @Test
    void shouldFilterByLicenseStatusAdminUnitAndRoomLeft() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID roomForOne = Rows.fosterHome().adminUnit("unit-1").capacity(2).insert(jdbc);
        UUID full = Rows.fosterHome().adminUnit("unit-1").capacity(1).insert(jdbc);
        UUID unlimited = Rows.fosterHome().adminUnit("unit-2").capacity(null).insert(jdbc);
        UUID suspended = Rows.fosterHome().adminUnit("unit-1").capacity(3).licenseStatus("SUSPENDED").insert(jdbc);
        Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).status("ACTIVE").in(roomForOne).insert(jdbc);
        Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).status("ACTIVE").in(full).insert(jdbc);

        assertThat(ids("/foster-homes?license_status=ACTIVE&admin_unit=unit-1&min_room=1"))
                .containsExactly(roomForOne);
        assertThat(ids("/foster-homes?min_room=1")).containsExactlyInAnyOrder(roomForOne, unlimited, suspended);
        assertThat(ids("/foster-homes?min_room=2")).containsExactlyInAnyOrder(unlimited, suspended);
        assertThat(ids("/foster-homes?license_status=ACTIVE")).containsExactlyInAnyOrder(roomForOne, full, unlimited);
        assertThat(ids("/foster-homes?admin_unit=unit-2")).containsExactly(unlimited);
        assertThat(ids("/foster-homes?admin_unit=unit-9")).isEmpty();
        JsonNode listed = api.get("/foster-homes?admin_unit=unit-1&license_status=ACTIVE&limit=1", admin).json();
        assertThat(listed.path("items").get(0).path("active_placements").asInt()).isEqualTo(1);
    }

    @Test
    void shouldRefuseEveryBadFilterLimitOrCursorWithAProblemDocumentNamingTheParameter() {
        UUID home = Rows.fosterHome().insert(jdbc);
        for (String[] bad : new String[][] {
                {"/foster-homes?license_status=LICENSED", "license_status"},
                {"/foster-homes?license_status=active", "license_status"},
                {"/foster-homes?license_status=", "license_status"},
                {"/foster-homes?admin_unit=", "admin_unit"},
                {"/foster-homes?admin_unit=%20", "admin_unit"},
                {"/foster-homes?admin_unit=unit%00", "admin_unit"},
                {"/foster-homes?admin_unit=unit%0A1", "admin_unit"},
                {"/foster-homes?admin_unit=" + "u".repeat(101), "admin_unit"},
                {"/foster-homes?min_room=0", "min_room"},
                {"/foster-homes?min_room=-1", "min_room"},
                {"/foster-homes?min_room=abc", "min_room"},
                {"/foster-homes?min_room=99999999999", "min_room"},
                {"/foster-homes?limit=0", "limit"},
                {"/foster-homes?limit=4", "limit"},
                {"/foster-homes?limit=-1", "limit"},
                {"/foster-homes?limit=99999999999", "limit"},
                {"/foster-homes?cursor=bm90LWEtY3Vyc29y", "cursor"},
                {"/foster-homes/" + home + "/placements?status=LIVE", "status"},
                {"/foster-homes/" + home + "/placements?status=", "status"},
                {"/foster-homes/" + home + "/placements?limit=4", "limit"},
                {"/foster-homes/" + home + "/placements?limit=-2147483648", "limit"},
                {"/foster-homes/" + home + "/placements?cursor=%00", "cursor"}}) {
            Reply reply = api.get(bad[0], admin);
            assertThat(reply.status()).as(bad[0] + " " + reply).isEqualTo(400);
            assertThat(reply.code()).as(reply.toString()).isEqualTo("VALIDATION_FAILED");
            assertThat(reply.json().path("errors").get(0).path("field").asString()).as(reply.toString()).isEqualTo(bad[1]);
        }
        assertThat(api.get("/foster-homes?license_status=LICENSED", admin).body())
                .contains("PENDING").contains("ACTIVE").contains("SUSPENDED").contains("REVOKED");
    }

    @Test
    void shouldRefuseACursorUsedWithOtherFiltersAnotherJurisdictionOrAnotherList() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID home = Rows.fosterHome().capacity(null).insert(jdbc);
        UUID other = Rows.fosterHome().capacity(null).insert(jdbc);
        for (int i = 0; i < 2; i++) {
            Rows.fosterHome().insert(jdbc);
            Rows.fosterHome().jurisdiction("texas").insert(jdbc);
            Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).status("ACTIVE").in(home).insert(jdbc);
            Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).status("ACTIVE").in(other).insert(jdbc);
        }
        String homes = api.get("/foster-homes?license_status=ACTIVE&limit=1", admin).text("next_cursor");
        String placements = api.get("/foster-homes/" + home + "/placements?limit=1", admin).text("next_cursor");
        String texas = TestTokens.admin("tx-1").jurisdiction("texas").token();

        for (String[] misuse : new String[][] {
                {"/foster-homes?cursor=" + homes, admin},
                {"/foster-homes?license_status=PENDING&cursor=" + homes, admin},
                {"/foster-homes?license_status=ACTIVE&admin_unit=unit-1&cursor=" + homes, admin},
                {"/foster-homes?license_status=ACTIVE&min_room=1&cursor=" + homes, admin},
                {"/foster-homes?license_status=ACTIVE&cursor=" + homes, texas},
                {"/foster-homes?license_status=ACTIVE&cursor=" + placements, admin},
                {"/foster-homes/" + home + "/placements?cursor=" + homes, admin},
                {"/foster-homes/" + other + "/placements?cursor=" + placements, admin},
                {"/foster-homes/" + home + "/placements?status=ACTIVE&cursor=" + placements, admin}}) {
            Reply reply = api.get(misuse[0], misuse[1]);
            assertThat(reply.code()).as(misuse[0] + " " + reply).isEqualTo("VALIDATION_FAILED");
        }
        assertThat(api.get("/foster-homes?license_status=ACTIVE&cursor=" + homes, admin).status()).isEqualTo(200);
        assertThat(api.get("/foster-homes/" + home + "/placements?cursor=" + placements, admin).status()).isEqualTo(200);
    }

    @Test
    void shouldListTheHomesPlacementsEachCallerMayReadFilteredByStatusWithTheirETags() {
        // Given a home holding placements of a case of w-1's, of a case of w-2's, and of a case that moved to Texas
        UUID mine = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID theirs = Cases.assignedTo(jdbc, "w-2", "s-2", 1);
        UUID home = Rows.fosterHome().capacity(null).insert(jdbc);
        UUID active = Rows.placement(mine).worker("w-1").supervisor("s-1").revision(1).status("ACTIVE").in(home)
                .rowVersion(3).insert(jdbc);
        UUID proposed = Rows.placement(mine).worker("w-1").supervisor("s-1").revision(1).in(home).insert(jdbc);
        UUID ended = Rows.placement(mine).worker("w-1").supervisor("s-1").revision(1).status("ENDED").in(home).insert(jdbc);
        UUID elsewhere = Rows.placement(mine).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        UUID other = Rows.placement(theirs).worker("w-2").supervisor("s-2").revision(1).status("ACTIVE").in(home).insert(jdbc);
        UUID moved = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID movedAway = Rows.placement(moved).worker("w-1").supervisor("s-1").revision(1).status("ACTIVE").in(home)
                .insert(jdbc);
        jdbc.update("UPDATE case_assignments SET jurisdiction = 'texas' WHERE case_id = ?", moved);
        String worker = TestTokens.caseworker("w-1").token();

        // When
        List<JsonNode> asAdmin = items(pages("/foster-homes/" + home + "/placements?limit=2", admin));
        List<JsonNode> asWorker = items(pages("/foster-homes/" + home + "/placements", worker));
        List<JsonNode> activeOnly = items(pages("/foster-homes/" + home + "/placements?status=ACTIVE", admin));

        // Then each sees what its single reads would show, and no other jurisdiction's child
        assertThat(asAdmin).extracting(item -> UUID.fromString(item.path("id").asString()))
                .containsExactlyInAnyOrder(active, proposed, ended, other).doesNotContain(elsewhere, movedAway);
        assertThat(asWorker).extracting(item -> UUID.fromString(item.path("id").asString()))
                .containsExactlyInAnyOrder(active, proposed, ended);
        assertThat(activeOnly).extracting(item -> UUID.fromString(item.path("id").asString()))
                .containsExactlyInAnyOrder(active, other);
        JsonNode first = asWorker.stream().filter(item -> item.path("id").asString().equals(active.toString()))
                .findFirst().orElseThrow();
        assertThat(first.path("etag").asString()).isEqualTo(TestETags.placement(active, 3))
                .isEqualTo(api.get("/placements/" + active, worker).etag());
    }

    @Test
    void shouldNeverHandOutAnEmptyPageWithACursorOverPlacementsOfCasesThatMovedToAnotherJurisdiction() {
        // Given a home whose first placements belong to cases that moved to Texas, then one of a Georgia case
        UUID home = Rows.fosterHome().capacity(null).insert(jdbc);
        for (int i = 0; i < 3; i++) {
            UUID moved = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
            Rows.placement(moved).worker("w-1").supervisor("s-1").revision(1).status("ENDED").in(home).insert(jdbc);
            jdbc.update("UPDATE case_assignments SET jurisdiction = 'texas' WHERE case_id = ?", moved);
        }
        UUID staying = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID mine = Rows.placement(staying).worker("w-1").supervisor("s-1").revision(1).in(home).insert(jdbc);

        // When a Georgia admin pages through the home's placements, two at a time
        List<Reply> pages = pages("/foster-homes/" + home + "/placements?limit=2", admin);

        // Then one page holding the Georgia placement: the moved ones are not even skipped over
        assertThat(pages).extracting(page -> page.json().path("items").size()).containsExactly(1);
        assertThat(items(pages)).extracting(item -> item.path("id").asString()).containsExactly(mine.toString());
    }

    @Test
    void shouldAnswerTheRosterOfAForeignUnknownOrMissingHomeAsItsSingleReadIs() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1, "texas");
        UUID texan = Rows.fosterHome().jurisdiction("texas").insert(jdbc);
        UUID ofNoJurisdiction = Rows.fosterHome().jurisdiction(null).insert(jdbc);
        Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).status("ACTIVE").in(texan).insert(jdbc);

        for (UUID home : List.of(texan, ofNoJurisdiction, UUID.randomUUID())) {
            Reply single = api.get("/foster-homes/" + home, admin);
            Reply roster = api.get("/foster-homes/" + home + "/placements?limit=1", admin);
            assertThat(single.status()).isIn(403, 404);
            assertThat(roster.status()).as(roster.toString()).isEqualTo(single.status());
            assertThat(roster.code()).isEqualTo(single.code());
            if (single.status() == 403) {
                assertThat(roster.body()).isEqualTo(single.body()).isEmpty();
            }
        }
    }

    @Test
    void shouldLeaveOutHomesTheRulesetDoesNotLetTheCallerRead() {
        Rows.fosterHome().insert(jdbc);

        Reply asAuditor = api.get("/foster-homes", auditor);

        assertThat(asAuditor.status()).as(asAuditor.toString()).isEqualTo(200);
        assertThat(asAuditor.json().path("items").size()).isZero();
        assertThat(api.get("/foster-homes", null).status()).isEqualTo(401);
    }

    @Test
    void shouldAnswerARoleThatMayReadNoHomeItsEmptyLastPageWithoutTakingAConnection() throws SQLException {
        // Given homes, none of which the auditor's ruleset lets it read, and every connection of the API's pool held
        for (int i = 0; i < 4; i++) {
            Rows.fosterHome().insert(jdbc);
        }
        List<Connection> held = new ArrayList<>();
        try {
            while (held.size() < ((HikariDataSource) pool).getMaximumPoolSize()) {
                held.add(pool.getConnection());
            }

            // When the auditor lists the homes, filtered or not
            List<Reply> pages = List.of(api.get("/foster-homes", auditor),
                    api.get("/foster-homes?license_status=ACTIVE&limit=1", auditor));

            // Then the empty last page at once: nothing was read, so the number of homes shows nowhere
            for (Reply page : pages) {
                assertThat(page.status()).as(page.toString()).isEqualTo(200);
                assertThat(page.json().path("items").size()).isZero();
                assertThat(page.text("next_cursor")).isNull();
            }
        } finally {
            for (Connection connection : held) {
                connection.close();
            }
        }
    }

    @Test
    void shouldAnswerARoleThatMayReadTheHomeButNoPlacementWithoutReadingThePlacements() {
        // Given a home with a child in it, and a county director, who reads homes but no placement
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID home = Rows.fosterHome().capacity(null).insert(jdbc);
        Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).status("ACTIVE").in(home).insert(jdbc);
        String director = TestTokens.countyDirector("d-1", "unit-1").token();

        // When the director lists the home's placements while the cases' projection, which the page reads, is locked
        Reply page;
        try (OpenTransaction lock = OpenTransaction.begin(DB.dataSource(),
                tx -> tx.execute("LOCK TABLE case_assignments IN ACCESS EXCLUSIVE MODE")).awaitWork()) {
            page = backends.answeredWithoutWaitingFor(lock, api,
                    ApiClient.request("GET", "/foster-homes/" + home + "/placements?status=ACTIVE").token(director));
        }

        // Then the home is decided, and the empty last page answered without a read of its placements
        assertThat(page.status()).as(page.toString()).isEqualTo(200);
        assertThat(page.json().path("items").size()).isZero();
        assertThat(page.text("next_cursor")).isNull();
        assertThat(api.get("/foster-homes/" + home + "/placements", auditor).status()).isEqualTo(403);
    }

    @Test
    void shouldKeepACursorToItsJurisdictionAndItsHomeWhenTheHomeMovesToAnother() {
        // Given a georgia admin's cursors into the roster, just after the first home, and into that home's placements
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        List<UUID> homes = inCreationOrder(List.of(Rows.fosterHome().insert(jdbc), Rows.fosterHome().insert(jdbc)));
        UUID first = homes.get(0);
        for (int i = 0; i < 2; i++) {
            Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).status("ENDED").in(first).insert(jdbc);
        }
        String rosterCursor = api.get("/foster-homes?limit=1", admin).text("next_cursor");
        String placementsCursor = api.get("/foster-homes/" + first + "/placements?limit=1", admin).text("next_cursor");
        String texas = TestTokens.admin("tx-1").jurisdiction("texas").token();

        // When the first home moves to Texas and both cursors are replayed
        jdbc.update("UPDATE foster_homes SET jurisdiction = 'texas' WHERE id = ?", first);
        Reply roster = api.get("/foster-homes?limit=1&cursor=" + rosterCursor, admin);
        Reply georgian = api.get("/foster-homes/" + first + "/placements?limit=1&cursor=" + placementsCursor, admin);
        Reply texan = api.get("/foster-homes/" + first + "/placements?limit=1&cursor=" + placementsCursor, texas);

        // Then the roster's cursor goes on in Georgia's list only; the home's cursor shows nothing to either
        // jurisdiction: the home is no longer Georgia's to list, and the cursor was never Texas's
        assertThat(roster.status()).as(roster.toString()).isEqualTo(200);
        assertThat(roster.json().path("items").valueStream().map(item -> item.path("id").asString()).toList())
                .containsExactly(homes.get(1).toString());
        assertThat(georgian.status()).as(georgian.toString()).isEqualTo(403);
        assertThat(georgian.body()).isEmpty();
        assertThat(texan.code()).as(texan.toString()).isEqualTo("VALIDATION_FAILED");
        assertThat(api.get("/foster-homes/" + first + "/placements?limit=1", texas).status()).isEqualTo(200);
    }

    private List<Reply> pages(String first, String token) {
        List<Reply> pages = new ArrayList<>();
        String cursor = null;
        do {
            Reply page = api.get(first + (cursor == null ? "" : (first.contains("?") ? "&" : "?") + "cursor=" + cursor),
                    token);
            assertThat(page.status()).as(page.toString()).isEqualTo(200);
            pages.add(page);
            cursor = page.text("next_cursor");
        } while (cursor != null);
        return pages;
    }

    private static List<JsonNode> items(List<Reply> pages) {
        List<JsonNode> items = new ArrayList<>();
        pages.forEach(page -> page.json().path("items").valueStream().forEach(items::add));
        return items;
    }

    private List<UUID> ids(String path) {
        return items(pages(path, admin)).stream().map(item -> UUID.fromString(item.path("id").asString())).toList();
    }

    private List<UUID> inCreationOrder(List<UUID> homes) {
        return jdbc.queryForList("SELECT id FROM foster_homes WHERE id = ANY (?) ORDER BY created_at, id", UUID.class,
                (Object) homes.toArray(UUID[]::new));
    }
}
