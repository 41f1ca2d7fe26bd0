package org.caseassignments.api.fosterhome;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.UUID;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.api.policy.PolicyEngine;
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
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

@ApiIntegrationTest
@ExtendWith(OutputCaptureExtension.class)
class FosterHomeApiIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    private final JdbcTemplate jdbc = DB.jdbc();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldCreateAPendingHomeAndMoveItsLicenseThroughTheStateMachine() {
        String admin = TestTokens.admin("a-1").token();

        Reply created = api.post("/foster-homes", admin,
                "{\"name\": \"Oak House\", \"license_number\": \"GA-100\", \"admin_unit\": \"unit-1\", \"capacity\": 3}");
        String id = created.text("id");
        Reply active = api.patch("/foster-homes/" + id, admin, created.etag(), "{\"license_status\": \"ACTIVE\"}");
        Reply suspended = api.patch("/foster-homes/" + id, admin, active.etag(), "{\"license_status\": \"SUSPENDED\"}");
        Reply reinstated = api.patch("/foster-homes/" + id, admin, suspended.etag(), "{\"license_status\": \"ACTIVE\"}");
        Reply revoked = api.patch("/foster-homes/" + id, admin, reinstated.etag(), "{\"license_status\": \"REVOKED\"}");
        Reply backToPending = api.patch("/foster-homes/" + id, admin, revoked.etag(), "{\"license_status\": \"PENDING\"}");

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.header("Location")).hasValue("/foster-homes/" + id);
        assertThat(created.text("license_status")).isEqualTo("PENDING");
        assertThat(created.json().path("capacity").asInt()).isEqualTo(3);
        assertThat(active.text("license_status")).isEqualTo("ACTIVE");
        assertThat(suspended.text("license_status")).isEqualTo("SUSPENDED");
        assertThat(reinstated.text("license_status")).isEqualTo("ACTIVE");
        assertThat(revoked.text("license_status")).isEqualTo("REVOKED");
        assertThat(revoked.etag()).isEqualTo(TestETags.fosterHome(UUID.fromString(id), 5));
        assertThat(backToPending.code()).isEqualTo("INVALID_TRANSITION");
    }

    @Test
    void shouldLetEachJurisdictionHoldTheSameLicenseNumberWithoutLearningTheOthers() {
        String number = "LIC-" + UUID.randomUUID();
        String georgia = TestTokens.admin("ga-1").token();
        String texas = TestTokens.admin("tx-1").jurisdiction("texas").token();
        Reply inGeorgia = api.post("/foster-homes", georgia, home(number));

        Reply inTexas = api.post("/foster-homes", texas, home(number));
        Reply secondInTexas = api.post("/foster-homes", texas, home(number));

        assertThat(inGeorgia.status()).as(inGeorgia.toString()).isEqualTo(201);
        assertThat(inTexas.status()).as("Georgia's number is no oracle and no squat in Texas: " + inTexas).isEqualTo(201);
        assertThat(secondInTexas.code()).as("still unique within one jurisdiction").isEqualTo("DUPLICATE_LICENSE_NUMBER");
        assertThat(secondInTexas.text("detail")).contains(number).doesNotContain("georgia").doesNotContain(inGeorgia.text("id"));
    }

    @Test
    void shouldLetAPatchTakeALicenseNumberAnotherJurisdictionHolds() {
        String number = "LIC-" + UUID.randomUUID();
        String texas = TestTokens.admin("tx-1").jurisdiction("texas").token();
        assertThat(api.post("/foster-homes", TestTokens.admin("ga-1").token(), home(number)).status()).isEqualTo(201);
        Reply created = api.post("/foster-homes", texas, home("LIC-" + UUID.randomUUID()));

        Reply renumbered = api.patch("/foster-homes/" + created.text("id"), texas, created.etag(),
                "{\"license_number\": \"" + number + "\"}");

        assertThat(renumbered.status()).as(renumbered.toString()).isEqualTo(200);
        assertThat(renumbered.text("license_number")).isEqualTo(number);
    }

    @Test
    void shouldTreatLicenseNumbersDifferingOnlyInCaseOrSurroundingSpacesAsOneWithinAJurisdictionAndKeepTheTextAsWritten() {
        String georgia = TestTokens.admin("ga-77").token();
        String texas = TestTokens.admin("tx-77").jurisdiction("texas").token();

        Reply first = api.post("/foster-homes", georgia, home("GA-77"));
        List<Reply> variants = List.of(api.post("/foster-homes", georgia, home("ga-77")),
                api.post("/foster-homes", georgia, home("GA-77 ")), api.post("/foster-homes", georgia, home(" GA-77")));
        Reply inTexas = api.post("/foster-homes", texas, home(" ga-77 "));
        Reply other = api.post("/foster-homes", georgia, home("GA-78"));
        Reply renumbered = api.patch("/foster-homes/" + other.text("id"), georgia, other.etag(),
                "{\"license_number\": \" Ga-77\"}");

        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        assertThat(variants).allSatisfy(variant -> {
            assertThat(variant.status()).as(variant.toString()).isEqualTo(409);
            assertThat(variant.code()).isEqualTo("DUPLICATE_LICENSE_NUMBER");
        });
        assertThat(renumbered.code()).as(renumbered.toString()).isEqualTo("DUPLICATE_LICENSE_NUMBER");
        assertThat(inTexas.status()).as("another jurisdiction's licence: " + inTexas).isEqualTo(201);
        assertThat(inTexas.text("license_number")).as("kept as written, for display").isEqualTo(" ga-77 ");
        assertThat(api.get("/foster-homes/" + first.text("id"), georgia).text("license_number")).isEqualTo("GA-77");
    }

    private static String home(String licenseNumber) {
        return "{\"name\": \"Oak House\", \"license_number\": \"" + licenseNumber + "\", \"admin_unit\": \"unit-1\"}";
    }

    @Test
    void shouldRefuseAPendingLicenseThatSkipsActivationToSuspension() {
        UUID home = Rows.fosterHome().licenseStatus("PENDING").insert(jdbc);

        Reply reply = api.patch("/foster-homes/" + home, TestTokens.admin("a-1").token(), TestETags.fosterHome(home, 1),
                "{\"license_status\": \"SUSPENDED\"}");

        assertThat(reply.code()).isEqualTo("INVALID_TRANSITION");
    }

    @Test
    void shouldLetEveryKnownRoleReadAHomeButOnlyMaintainersChangeIt() {
        UUID home = Rows.fosterHome().adminUnit("unit-1").insert(jdbc);

        assertThat(api.get("/foster-homes/" + home, TestTokens.caseworker("w-1").token()).status()).isEqualTo(200);
        assertThat(api.patch("/foster-homes/" + home, TestTokens.caseworker("w-1").token(), TestETags.fosterHome(home, 1),
                "{\"name\": \"Renamed\"}").status()).isEqualTo(403);
        assertThat(api.get("/foster-homes/" + home, TestTokens.subject("x").roles("intern").token()).status())
                .isEqualTo(403);
    }

    @Test
    void shouldDenyACountyDirectorCreatingAHomeOutsideTheirAdminUnits() {
        String director = TestTokens.countyDirector("d-1", "unit-1").token();

        Reply outside = api.post("/foster-homes", director,
                "{\"name\": \"Elm\", \"license_number\": \"GA-201\", \"admin_unit\": \"unit-2\"}");
        Reply inside = api.post("/foster-homes", director,
                "{\"name\": \"Elm\", \"license_number\": \"GA-202\", \"admin_unit\": \"unit-1\"}");

        assertThat(outside.status()).isEqualTo(403);
        assertThat(inside.status()).isEqualTo(201);
    }

    @Test
    void shouldDenyACountyDirectorMovingAHomeIntoAnAdminUnitTheyDoNotHold() {
        UUID home = Rows.fosterHome().adminUnit("unit-1").insert(jdbc);
        String director = TestTokens.countyDirector("d-1", "unit-1").token();
        double before = decisions();

        Reply moved = api.patch("/foster-homes/" + home, director, TestETags.fosterHome(home, 1), "{\"admin_unit\": \"unit-2\"}");

        assertThat(moved.status()).isEqualTo(403);
        assertThat(moved.body()).isEmpty();
        assertThat(decisions() - before).as("before- and after-image evaluated").isEqualTo(2);
        assertThat(jdbc.queryForObject("SELECT admin_unit FROM foster_homes WHERE id = ?", String.class, home))
                .isEqualTo("unit-1");
    }

    @Test
    void shouldEvaluateTheAfterImageOnlyWhenAPolicyVisibleInputChanges() {
        UUID home = Rows.fosterHome().adminUnit("unit-1").insert(jdbc);
        String director = TestTokens.countyDirector("d-1", "unit-1", "unit-2").token();

        double beforeRename = decisions();
        Reply renamed = api.patch("/foster-homes/" + home, director, TestETags.fosterHome(home, 1),
                "{\"name\": \"Renamed\", \"capacity\": 4, \"license_number\": \"GA-NEW-" + home + "\"}");
        double rename = decisions() - beforeRename;
        double beforeMove = decisions();
        Reply moved = api.patch("/foster-homes/" + home, director, renamed.etag(), "{\"admin_unit\": \"unit-2\"}");
        double move = decisions() - beforeMove;

        assertThat(renamed.status()).as(renamed.toString()).isEqualTo(200);
        assertThat(rename).as("name, capacity and license number are not policy-visible: one evaluation").isEqualTo(1);
        assertThat(moved.status()).isEqualTo(200);
        assertThat(move).as("admin_unit is policy-visible: before and after").isEqualTo(2);
    }

    private double decisions() {
        return meters.find(PolicyEngine.DECISIONS_METRIC).counters().stream().mapToDouble(c -> c.count()).sum();
    }

    @Test
    void shouldLogAPageOfDecisionsAsOneLineWhateverItsSize(CapturedOutput output) {
        // Given a page of 50 homes, and of 50 placements in one of them, one of which a caseworker may read
        String admin = TestTokens.admin("a-1").token();
        UUID mine = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID theirs = Cases.assignedTo(jdbc, "w-2", "s-2", 1);
        UUID home = Rows.fosterHome().capacity(null).insert(jdbc);
        for (int i = 1; i < 50; i++) {
            Rows.fosterHome().insert(jdbc);
        }
        Rows.placement(mine).worker("w-1").supervisor("s-1").revision(1).in(home).insert(jdbc);
        for (int i = 1; i < 50; i++) {
            Rows.placement(theirs).worker("w-2").supervisor("s-2").revision(1).in(home).insert(jdbc);
        }
        Logger decisions = (Logger) LoggerFactory.getLogger(PolicyEngine.DECISION_LOG);
        Level level = decisions.getLevel();
        decisions.setLevel(Level.INFO); // as in production; tests log warnings only
        try {
            // When the roster and the home's placements are listed, a page each
            int start = output.getOut().length();
            Reply homes = api.get("/foster-homes?limit=50", admin);
            List<String> rosterLines = decisionLines(output, start);
            start = output.getOut().length();
            Reply placements = api.get("/foster-homes/" + home + "/placements?limit=50",
                    TestTokens.caseworker("w-1").token());
            List<String> placementLines = decisionLines(output, start);

            // Then one line for the page (and one for the home the placements are decided on), not one per row
            assertThat(homes.json().path("items").size()).isEqualTo(50);
            assertThat(rosterLines).singleElement().asString().contains("decision=PAGE").contains("resource=foster_home ")
                    .contains("rows=50 allowed=50 denied=0");
            assertThat(placements.json().path("items").size()).isOne();
            assertThat(placementLines).hasSize(2);
            assertThat(placementLines.get(0)).contains("decision=ALLOW").contains("resource=foster_home/" + home);
            assertThat(placementLines.get(1)).contains("decision=PAGE").contains("resource=placement ")
                    .contains("rows=50 allowed=1 denied=49").contains("sub=w-1");
        } finally {
            decisions.setLevel(level);
        }
    }

    private static List<String> decisionLines(CapturedOutput output, int from) {
        return output.getOut().substring(from).lines().filter(line -> line.contains("decision=")).toList();
    }
}
