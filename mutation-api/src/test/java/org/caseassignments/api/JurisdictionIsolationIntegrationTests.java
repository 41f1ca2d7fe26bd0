package org.caseassignments.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Every role × the record's jurisdiction (the caller's, the other bundled one, unknown) × every resource and
 * action, through HTTP with signed tokens of both bundled jurisdictions. The records stand as favourably to the
 * caller as they can (assigned to and supervised by the caller, in the caller's admin unit), so only the
 * jurisdiction can refuse: no read or write of another jurisdiction's record, or of one whose jurisdiction is
 * unknown, succeeds, and the database shows nothing written. Within the caller's jurisdiction the bundled
 * rulesets decide as specified.
 */
@ApiIntegrationTest
class JurisdictionIsolationIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    private static final String ME = "me";
    private static final String UNIT = "unit-1";
    private static final List<String> ROLES = List.of("caseworker", "supervisor", "county_director", "admin", "service",
            "none");

    /** Whose record it is, seen from the caller. */
    enum Owner {
        SAME, OTHER, UNKNOWN
    }

    /** Every resource and action the API serves. */
    enum Operation {
        READ_ASSIGNMENT, READ_PLACEMENT, LIST_PLACEMENTS, CREATE_PLACEMENT, UPDATE_PLACEMENT,
        READ_KINSHIP, LIST_KINSHIP, CREATE_KINSHIP, UPDATE_KINSHIP, DELETE_KINSHIP,
        READ_FOSTER_HOME, UPDATE_FOSTER_HOME, CREATE_FOSTER_HOME
    }

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    static Stream<Arguments> everyRoleAndOwner() {
        List<Arguments> cases = new ArrayList<>();
        for (String jurisdiction : List.of("georgia", "texas")) {
            for (String role : ROLES) {
                for (Owner owner : Owner.values()) {
                    cases.add(Arguments.of(jurisdiction, role, owner));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1} on a record of {2} jurisdiction")
    @MethodSource("everyRoleAndOwner")
    void shouldLetNoCallerReadOrWriteARecordOfAnotherOrAnUnknownJurisdiction(String jurisdiction, String role,
                                                                            Owner owner) {
        // Given a case, its placement and kinship options, and a foster home, all of the owner's jurisdiction
        String recordJurisdiction = switch (owner) {
            case SAME -> jurisdiction;
            case OTHER -> jurisdiction.equals("georgia") ? "texas" : "georgia";
            case UNKNOWN -> null;
        };
        UUID caseId = Cases.assignedTo(jdbc, ME, ME, 1, recordJurisdiction);
        UUID home = Rows.fosterHome().adminUnit(UNIT).jurisdiction(recordJurisdiction).insert(jdbc);
        UUID placement = Rows.placement(caseId).worker(ME).supervisor(ME).revision(1).in(home).insert(jdbc);
        UUID kinship = Rows.kinshipOption(caseId).worker(ME).supervisor(ME).revision(1).insert(jdbc);
        UUID doomedKinship = Rows.kinshipOption(caseId).worker(ME).supervisor(ME).revision(1).insert(jdbc);
        String token = TestTokens.subject(ME).roles(role.equals("none") ? new String[0] : new String[] {role})
                .jurisdiction(jurisdiction).adminUnits(UNIT).token();

        for (Operation operation : Operation.values()) {
            if (operation == Operation.CREATE_FOSTER_HOME && owner != Owner.SAME) {
                continue; // a home is created in the caller's own jurisdiction; there is no other to aim at
            }
            // When
            Reply reply = switch (operation) {
                case READ_ASSIGNMENT -> api.get("/cases/" + caseId + "/assignment", token);
                case READ_PLACEMENT -> api.get("/placements/" + placement, token);
                case LIST_PLACEMENTS -> api.get("/cases/" + caseId + "/placements", token);
                case CREATE_PLACEMENT -> api.post("/cases/" + caseId + "/placements", token, "{}");
                case UPDATE_PLACEMENT -> api.patch("/placements/" + placement, token,
                        etag("/placements/" + placement, recordJurisdiction), "{\"status\": \"ACTIVE\"}");
                case READ_KINSHIP -> api.get("/kinship-options/" + kinship, token);
                case LIST_KINSHIP -> api.get("/cases/" + caseId + "/kinship-options", token);
                case CREATE_KINSHIP -> api.post("/cases/" + caseId + "/kinship-options", token,
                        "{\"relative_name\": \"Ada\", \"relationship\": \"aunt\"}");
                case UPDATE_KINSHIP -> api.patch("/kinship-options/" + kinship, token,
                        etag("/kinship-options/" + kinship, recordJurisdiction), "{\"approved\": true}");
                case DELETE_KINSHIP -> api.delete("/kinship-options/" + doomedKinship, token,
                        etag("/kinship-options/" + doomedKinship, recordJurisdiction));
                case READ_FOSTER_HOME -> api.get("/foster-homes/" + home, token);
                case UPDATE_FOSTER_HOME -> api.patch("/foster-homes/" + home, token,
                        etag("/foster-homes/" + home, recordJurisdiction), "{\"name\": \"Renamed\"}");
                case CREATE_FOSTER_HOME -> api.post("/foster-homes", token, "{\"name\": \"New\", \"license_number\": \"LIC-"
                        + UUID.randomUUID() + "\", \"admin_unit\": \"" + UNIT + "\"}");
            };

            // Then
            boolean allowed = owner == Owner.SAME && allowedAtHome(role, operation);
            String what = jurisdiction + " " + role + " " + operation + " on a record of " + owner + " jurisdiction: " + reply;
            if ((operation == Operation.LIST_PLACEMENTS || operation == Operation.LIST_KINSHIP) && owner == Owner.SAME) {
                assertThat(reply.status()).as(what).isEqualTo(200);
                assertThat(reply.body().contains(operation == Operation.LIST_PLACEMENTS ? placement.toString()
                        : kinship.toString())).as(what).isEqualTo(allowed);
            } else if (allowed) {
                assertThat(reply.status()).as(what).isBetween(200, 204);
            } else {
                assertThat(reply.status()).as(what).isEqualTo(403);
                assertThat(reply.body()).as("a denial carries no payload: " + what).isEmpty();
            }
        }

        if (owner != Owner.SAME) {
            assertThat(jdbc.queryForMap("SELECT status, row_version FROM placements WHERE id = ?", placement))
                    .isEqualTo(Map.of("status", "PROPOSED", "row_version", 1L));
            assertThat(jdbc.queryForList("SELECT row_version FROM kinship_options WHERE case_id = ? AND active",
                    Long.class, caseId)).containsExactly(1L, 1L);
            assertThat(jdbc.queryForMap("SELECT name, row_version FROM foster_homes WHERE id = ?", home))
                    .containsEntry("row_version", 1L).doesNotContainEntry("name", "Renamed");
            assertThat(jdbc.queryForObject("SELECT count(*) FROM placements WHERE case_id = ?", Integer.class, caseId))
                    .isOne();
        }
    }

    /** The bundled rulesets (both jurisdictions) for a record assigned to and supervised by the caller, in its unit. */
    private static boolean allowedAtHome(String role, Operation operation) {
        Set<Operation> caseRecords = Set.of(Operation.READ_PLACEMENT, Operation.LIST_PLACEMENTS,
                Operation.CREATE_PLACEMENT, Operation.UPDATE_PLACEMENT, Operation.READ_KINSHIP, Operation.LIST_KINSHIP,
                Operation.CREATE_KINSHIP, Operation.UPDATE_KINSHIP, Operation.DELETE_KINSHIP);
        Set<Operation> homeWrites = Set.of(Operation.UPDATE_FOSTER_HOME, Operation.CREATE_FOSTER_HOME);
        return switch (role) {
            case "admin", "service", "supervisor" -> true;
            case "caseworker" -> caseRecords.contains(operation) || operation == Operation.READ_FOSTER_HOME
                    || operation == Operation.READ_ASSIGNMENT;
            case "county_director" -> homeWrites.contains(operation) || operation == Operation.READ_FOSTER_HOME;
            default -> false;
        };
    }

    /**
     * The record's current ETag as an admin of its jurisdiction reads it, so a write that got past the
     * jurisdiction would not be stopped by its precondition instead; a record nobody can read gets a tag
     * that was never issued (the refusal comes before the precondition is compared).
     */
    private String etag(String path, String recordJurisdiction) {
        if (recordJurisdiction == null) {
            return "\"never-issued\"";
        }
        Reply read = api.get(path, TestTokens.admin("a-1").jurisdiction(recordJurisdiction).token());
        assertThat(read.status()).as(read.toString()).isEqualTo(200);
        return read.etag();
    }
}
