package org.caseassignments.api.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.caseassignments.api.security.Caller;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Default deny, fail-closed evaluation and the two-snapshot update decision. */
class PolicyEngineTests {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();
    private final PolicyEngine bundled = new PolicyEngine(new RulesetRegistry(null), meters);

    private static final Caller DIRECTOR = new Caller("d-1", List.of("county_director"), "georgia", List.of("unit-1"));

    @Test
    void shouldDenyAFosterHomeMoveIntoAnAdminUnitTheDirectorDoesNotHold() {
        ResourceRef before = home("unit-1", "ACTIVE");
        ResourceRef after = home("unit-2", "ACTIVE");

        assertThatThrownBy(() -> bundled.requireUpdate(DIRECTOR, before, after)).isInstanceOf(PolicyDenied.class);
        assertThat(evaluations()).isEqualTo(2);
    }

    @Test
    void shouldEvaluateOnlyTheBeforeImageWhenNoPolicyVisibleInputChanges() {
        ResourceRef before = home("unit-1", "ACTIVE");
        ResourceRef sameInputs = home("unit-1", "ACTIVE");

        assertThatCode(() -> bundled.requireUpdate(DIRECTOR, before, sameInputs)).doesNotThrowAnyException();
        assertThat(evaluations()).isEqualTo(1);
    }

    @Test
    void shouldEvaluateBothImagesWhenAPolicyVisibleInputChangesAndAllowWhenBothAllow() {
        Caller director = new Caller("d-1", List.of("county_director"), "georgia", List.of("unit-1", "unit-2"));

        assertThatCode(() -> bundled.requireUpdate(director, home("unit-1", "ACTIVE"), home("unit-2", "SUSPENDED")))
                .doesNotThrowAnyException();
        assertThat(evaluations()).isEqualTo(2);
    }

    @Test
    void shouldShortCircuitWhenTheBeforeImageIsDenied() {
        assertThatThrownBy(() -> bundled.requireUpdate(DIRECTOR, home("unit-9", "ACTIVE"), home("unit-1", "ACTIVE")))
                .isInstanceOf(PolicyDenied.class);
        assertThat(evaluations()).isEqualTo(1);
    }

    @Test
    void shouldDenyACallerWithoutAJurisdictionOrRoles() {
        Caller noJurisdiction = new Caller("a-1", List.of("admin"), null, List.of());
        Caller noRoles = new Caller("a-1", List.of(), "georgia", List.of());

        assertThat(bundled.allows(noJurisdiction, Action.READ, home("unit-1", "ACTIVE"))).isFalse();
        assertThat(bundled.allows(noRoles, Action.READ, home("unit-1", "ACTIVE"))).isFalse();
    }

    @Test
    void shouldDenyWhenAnApplicableRuleFailsToEvaluateEvenIfAnotherAllows(@TempDir Path directory) throws IOException {
        Files.writeString(directory.resolve("georgia.yaml"), """
                jurisdiction: georgia
                version: "9.0.0"
                rules:
                  - id: admins
                    resources: [foster_home]
                    actions: [read]
                    condition: "'admin' in claims.roles"
                  - id: broken-at-runtime
                    resources: [foster_home]
                    actions: [read]
                    condition: "resource.attrs.admin_unit + 1 == 2"
                """);
        PolicyEngine engine = new PolicyEngine(new RulesetRegistry(directory), meters);
        Caller admin = new Caller("a-1", List.of("admin"), "georgia", List.of());

        Decision decision = engine.decide(admin, Action.READ, home("unit-1", "ACTIVE"));

        assertThat(decision.allowed()).isFalse();
        assertThat(decision.rulesetVersion()).isEqualTo("9.0.0");
        assertThat(decision.reason()).contains("broken-at-runtime").contains("failed to evaluate");
    }

    @Test
    void shouldDenyAnActionNoRuleMentions(@TempDir Path directory) throws IOException {
        Files.writeString(directory.resolve("georgia.yaml"), """
                jurisdiction: georgia
                version: "9.0.0"
                rules:
                  - id: admins-read-only
                    resources: [foster_home]
                    actions: [read]
                    condition: "true"
                """);
        PolicyEngine engine = new PolicyEngine(new RulesetRegistry(directory), meters);
        Caller admin = new Caller("a-1", List.of("admin"), "georgia", List.of());

        assertThat(engine.allows(admin, Action.READ, home("unit-1", "ACTIVE"))).isTrue();
        assertThat(engine.allows(admin, Action.UPDATE, home("unit-1", "ACTIVE"))).isFalse();
        assertThat(engine.allows(admin, Action.READ, new ResourceRef(ResourceType.PLACEMENT, UUID.randomUUID(),
                UUID.randomUUID(), "a-1", null, Map.of("status", "PROPOSED"), "georgia"))).isFalse();
    }

    @Test
    void shouldReadNoRecordOfATypeWhenNoRuleForReadingItCanHoldForTheCallersClaims() {
        Caller auditor = new Caller("au-1", List.of("auditor"), "georgia", List.of());
        Caller caseworker = new Caller("w-1", List.of("caseworker"), "georgia", List.of());
        Caller admin = new Caller("a-1", List.of("admin"), "georgia", List.of());

        // a rule naming no role of the caller's, whatever it reads of the resource after that
        assertThat(bundled.readsNone(auditor, ResourceType.FOSTER_HOME)).isTrue();
        assertThat(bundled.readsNone(auditor, ResourceType.PLACEMENT)).isTrue();
        assertThat(bundled.readsNone(DIRECTOR, ResourceType.PLACEMENT)).isTrue();
        assertThat(bundled.readsNone(DIRECTOR, ResourceType.KINSHIP_OPTION)).isTrue();
        // a rule that holds for some resources (the caseworker's own cases) or for all
        assertThat(bundled.readsNone(caseworker, ResourceType.PLACEMENT)).isFalse();
        assertThat(bundled.readsNone(DIRECTOR, ResourceType.FOSTER_HOME)).isFalse();
        assertThat(bundled.readsNone(admin, ResourceType.PLACEMENT)).isFalse();
        // no ruleset serves the caller's jurisdiction
        assertThat(bundled.readsNone(new Caller("a-1", List.of("admin"), "utopia", List.of()), ResourceType.FOSTER_HOME))
                .isTrue();
        assertThat(evaluations()).as("one denial counted per answer that reads nothing").isEqualTo(5);
    }

    @Test
    void shouldReadSomeRecordsWhenARuleDependsOnTheResourceOrFailsForTheClaims(@TempDir Path directory)
            throws IOException {
        Files.writeString(directory.resolve("georgia.yaml"), """
                jurisdiction: georgia
                version: "9.0.0"
                rules:
                  - id: homes-of-a-unit-or-no-unit
                    resources: [foster_home]
                    actions: [read]
                    condition: "!has(resource.attrs.admin_unit) || resource.attrs.admin_unit in claims.admin_units"
                  - id: broken-for-every-caller
                    resources: [placement]
                    actions: [read]
                    condition: "claims.sub + 1 == 2"
                """);
        PolicyEngine engine = new PolicyEngine(new RulesetRegistry(directory), meters);
        Caller noRole = new Caller("n-1", List.of(), "georgia", List.of());

        // a rule whose outcome depends on the resource, even through has(), may allow some
        assertThat(engine.readsNone(noRole, ResourceType.FOSTER_HOME)).isFalse();
        // a rule that fails: left to each record's decision, which denies it and says why
        assertThat(engine.readsNone(noRole, ResourceType.PLACEMENT)).isFalse();
        assertThat(engine.decide(noRole, Action.READ, new ResourceRef(ResourceType.PLACEMENT, UUID.randomUUID(),
                UUID.randomUUID(), "w-1", null, Map.of("status", "ACTIVE"), "georgia")).reason())
                .contains("failed to evaluate");
        // and a type no rule reads
        assertThat(engine.readsNone(noRole, ResourceType.KINSHIP_OPTION)).isTrue();
    }

    private double evaluations() {
        return meters.find(PolicyEngine.DECISIONS_METRIC).counters().stream().mapToDouble(c -> c.count()).sum();
    }

    private static ResourceRef home(String adminUnit, String licenseStatus) {
        return new ResourceRef(ResourceType.FOSTER_HOME, UUID.fromString("00000000-0000-0000-0000-000000000001"), null,
                null, null, Map.of("admin_unit", adminUnit, "license_status", licenseStatus), "georgia");
    }
}
