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
 * Every role × action × resource type × relation, for both bundled rulesets, against an oracle
 * written from the specification rather than from the rule files.
 */
class BundledRulesetsTests {

    private static final String ME = "me";
    private static final String SOMEONE_ELSE = "someone-else";
    private static final List<String> ROLES = List.of("caseworker", "supervisor", "county_director", "admin", "service",
            "intern");
    private static final Set<String> KNOWN_ROLES = Set.of("caseworker", "supervisor", "county_director", "admin", "service");

    /** How the caller stands to the resource. */
    enum Relation {
        ASSIGNED, SUPERVISING, NEITHER, IN_MY_ADMIN_UNIT, OUTSIDE_MY_ADMIN_UNITS
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
                            cases.add(Arguments.of(jurisdiction, role, action, type, relation,
                                    expected(jurisdiction, role, action, type, relation)));
                        }
                    }
                }
            }
        }
        return cases.stream();
    }

    /** The specification, version 1.1.0 of both jurisdictions. */
    private static boolean expected(String jurisdiction, String role, Action action, ResourceType type, Relation relation) {
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

    @ParameterizedTest(name = "{0}: {1} {2} {3} ({4}) → allowed={5}")
    @MethodSource("everyCombination")
    void shouldDecideEveryRoleActionResourceAndRelationAsSpecified(String jurisdiction, String role, Action action,
                                                                   ResourceType type, Relation relation,
                                                                   boolean allowed) {
        Caller caller = new Caller(ME, List.of(role), jurisdiction, List.of("unit-mine"));

        Decision decision = ENGINE.decide(caller, action, resource(type, relation));

        assertThat(decision.allowed()).as(decision.reason()).isEqualTo(allowed);
        assertThat(decision.rulesetVersion()).isEqualTo("1.1.0");
        assertThat(decision.jurisdiction()).isEqualTo(jurisdiction);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyRole")
    void shouldDenyEveryRoleOfAnUnknownJurisdiction(String role) {
        Caller caller = new Caller(ME, List.of(role), "atlantis", List.of("unit-mine"));

        for (ResourceType type : ResourceType.values()) {
            Decision decision = ENGINE.decide(caller, Action.READ, resource(type,
                    type == ResourceType.FOSTER_HOME ? Relation.IN_MY_ADMIN_UNIT : Relation.ASSIGNED));
            assertThat(decision.allowed()).isFalse();
            assertThat(decision.rulesetVersion()).isNull();
        }
    }

    static Stream<String> everyRole() {
        return ROLES.stream();
    }

    private static ResourceRef resource(ResourceType type, Relation relation) {
        return switch (relation) {
            case ASSIGNED -> new ResourceRef(type, UUID.randomUUID(), UUID.randomUUID(), ME, SOMEONE_ELSE, attrs(type));
            case SUPERVISING -> new ResourceRef(type, UUID.randomUUID(), UUID.randomUUID(), SOMEONE_ELSE, ME, attrs(type));
            case NEITHER -> new ResourceRef(type, UUID.randomUUID(), UUID.randomUUID(), SOMEONE_ELSE, SOMEONE_ELSE,
                    attrs(type));
            case IN_MY_ADMIN_UNIT -> new ResourceRef(type, UUID.randomUUID(), null, null, null,
                    Map.of("admin_unit", "unit-mine", "license_status", "ACTIVE"));
            case OUTSIDE_MY_ADMIN_UNITS -> new ResourceRef(type, UUID.randomUUID(), null, null, null,
                    Map.of("admin_unit", "unit-other", "license_status", "ACTIVE"));
        };
    }

    private static Map<String, Object> attrs(ResourceType type) {
        return type == ResourceType.PLACEMENT ? Map.of("status", "PROPOSED") : Map.of("approved", false);
    }
}
