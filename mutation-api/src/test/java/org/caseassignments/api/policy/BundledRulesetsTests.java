package org.caseassignments.api.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.caseassignments.api.security.Caller;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every role × action × resource type × relation × the record's jurisdiction (the caller's, another, unknown),
 * for both bundled rulesets, against an oracle written from the specification rather than from the rule files.
 */
class BundledRulesetsTests {

    private static final String ME = "me";
    private static final String SOMEONE_ELSE = "someone-else";
    private static final List<String> ROLES = List.of("caseworker", "supervisor", "county_director", "admin", "service",
            "auditor", "intern");
    private static final Set<String> KNOWN_ROLES = Set.of("caseworker", "supervisor", "county_director", "admin", "service");

    /** How the caller stands to the resource. */
    enum Relation {
        ASSIGNED, SUPERVISING, NEITHER, IN_MY_ADMIN_UNIT, OUTSIDE_MY_ADMIN_UNITS
    }

    /** Whose record it is. */
    enum RecordJurisdiction {
        SAME, OTHER, UNKNOWN
    }

    private static final PolicyEngine ENGINE = new PolicyEngine(new RulesetRegistry(null), new SimpleMeterRegistry());

    static Stream<Arguments> everyCombination() {
        List<Arguments> cases = new ArrayList<>();
        for (String jurisdiction : List.of("georgia", "texas")) {
            for (String role : ROLES) {
                for (Action action : Action.values()) {
                    for (ResourceType type : ResourceType.values()) {
                        List<Relation> relations = type == ResourceType.FOSTER_HOME
                                ? List.of(Relation.IN_MY_ADMIN_UNIT, Relation.OUTSIDE_MY_ADMIN_UNITS)
                                : List.of(Relation.ASSIGNED, Relation.SUPERVISING, Relation.NEITHER);
                        for (Relation relation : relations) {
                            for (RecordJurisdiction owner : RecordJurisdiction.values()) {
                                cases.add(Arguments.of(jurisdiction, role, action, type, relation, owner,
                                        owner == RecordJurisdiction.SAME
                                                && expected(jurisdiction, role, action, type, relation)));
                            }
                        }
                    }
                }
            }
        }
        return cases.stream();
    }

    /** The specification, version 1.3.0 of both jurisdictions, for a record of the caller's own jurisdiction. */
    private static boolean expected(String jurisdiction, String role, Action action, ResourceType type, Relation relation) {
        if (type == ResourceType.AUDIT_RECORD) {
            return action == Action.READ && role.equals("auditor");
        }
        if (type == ResourceType.CASE_ASSIGNMENT) {
            return action == Action.READ && Set.of("caseworker", "supervisor", "admin", "service").contains(role);
        }
        if (type == ResourceType.FOSTER_HOME) {
            if (action == Action.READ) {
                return KNOWN_ROLES.contains(role);
            }
            return switch (role) {
                case "admin", "supervisor", "service" -> true;
                case "county_director" -> relation == Relation.IN_MY_ADMIN_UNIT;
                default -> false;
            };
        }
        return switch (role) {
            case "caseworker" -> relation == Relation.ASSIGNED;
            case "supervisor" -> jurisdiction.equals("georgia") || relation == Relation.SUPERVISING;
            case "admin", "service" -> true;
            default -> false;
        };
    }

    @ParameterizedTest(name = "{0}: {1} {2} {3} ({4}, {5} jurisdiction) → allowed={6}")
    @MethodSource("everyCombination")
    void shouldDecideEveryRoleActionResourceRelationAndJurisdictionAsSpecified(String jurisdiction, String role,
                                                                               Action action, ResourceType type,
                                                                               Relation relation,
                                                                               RecordJurisdiction owner,
                                                                               boolean allowed) {
        Caller caller = new Caller(ME, List.of(role), jurisdiction, List.of("unit-mine"));
        String recordJurisdiction = switch (owner) {
            case SAME -> jurisdiction;
            case OTHER -> jurisdiction.equals("georgia") ? "texas" : "georgia";
            case UNKNOWN -> null;
        };

        Decision decision = ENGINE.decide(caller, action, resource(type, relation, recordJurisdiction));

        assertThat(decision.allowed()).as(decision.reason()).isEqualTo(allowed);
        assertThat(decision.rulesetVersion()).as("no ruleset runs for another jurisdiction's record")
                .isEqualTo(owner == RecordJurisdiction.SAME ? "1.3.0" : null);
        assertThat(decision.jurisdiction()).isEqualTo(jurisdiction);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyRole")
    void shouldDenyEveryRoleOfAnUnknownJurisdiction(String role) {
        Caller caller = new Caller(ME, List.of(role), "atlantis", List.of("unit-mine"));

        for (ResourceType type : ResourceType.values()) {
            Decision decision = ENGINE.decide(caller, Action.READ, resource(type,
                    type == ResourceType.FOSTER_HOME ? Relation.IN_MY_ADMIN_UNIT : Relation.ASSIGNED, "atlantis"));
            assertThat(decision.allowed()).isFalse();
            assertThat(decision.rulesetVersion()).isNull();
        }
    }

    static Stream<String> everyRole() {
        return ROLES.stream();
    }

    private static ResourceRef resource(ResourceType type, Relation relation, String jurisdiction) {
        return switch (relation) {
            case ASSIGNED -> new ResourceRef(type, UUID.randomUUID(), UUID.randomUUID(), ME, SOMEONE_ELSE, attrs(type),
                    jurisdiction);
            case SUPERVISING -> new ResourceRef(type, UUID.randomUUID(), UUID.randomUUID(), SOMEONE_ELSE, ME, attrs(type),
                    jurisdiction);
            case NEITHER -> new ResourceRef(type, UUID.randomUUID(), UUID.randomUUID(), SOMEONE_ELSE, SOMEONE_ELSE,
                    attrs(type), jurisdiction);
            case IN_MY_ADMIN_UNIT -> new ResourceRef(type, UUID.randomUUID(), null, null, null,
                    Map.of("admin_unit", "unit-mine", "license_status", "ACTIVE"), jurisdiction);
            case OUTSIDE_MY_ADMIN_UNITS -> new ResourceRef(type, UUID.randomUUID(), null, null, null,
                    Map.of("admin_unit", "unit-other", "license_status", "ACTIVE"), jurisdiction);
        };
    }

    private static Map<String, Object> attrs(ResourceType type) {
        return switch (type) {
            case PLACEMENT -> Map.of("status", "PROPOSED");
            case KINSHIP_OPTION -> Map.of("approved", false);
            default -> Map.of();
        };
    }
}
