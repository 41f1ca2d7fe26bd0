package org.caseassignments.api.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.caseassignments.api.security.Caller;
import org.caseassignments.api.write.StalenessGate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Load-time vetting of conditions (ADR-060 D5 and D2, enforced): which resource fields a condition
 * reads, found on its checked AST; refusal of anything the service cannot re-read under the row lock
 * or cannot name; the static cost bound; and the evaluation budget at run time.
 */
class RulesetVettingTests {

    private static final ResourceField ADMIN_UNIT = ResourceField.attribute("admin_unit");
    private static final ResourceField CAPACITY = ResourceField.attribute("capacity");

    private final RulesetCompiler service = RulesetCompiler.service();
    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    @Test
    void shouldDeriveTheBundledRulesetsCompareSetsPerTypeAndAction() {
        RulesetRegistry bundled = new RulesetRegistry(null);
        Ruleset georgia = bundled.forJurisdiction("georgia").orElseThrow();
        Ruleset texas = bundled.forJurisdiction("texas").orElseThrow();

        for (Action action : Action.values()) {
            assertThat(georgia.reads(ResourceType.PLACEMENT, action)).containsExactly(ResourceField.ASSIGNED_WORKER_SUB);
            assertThat(georgia.reads(ResourceType.KINSHIP_OPTION, action)).containsExactly(ResourceField.ASSIGNED_WORKER_SUB);
            assertThat(texas.reads(ResourceType.PLACEMENT, action))
                    .containsExactlyInAnyOrder(ResourceField.ASSIGNED_WORKER_SUB, ResourceField.SUPERVISOR_SUB);
            assertThat(texas.reads(ResourceType.KINSHIP_OPTION, action))
                    .containsExactlyInAnyOrder(ResourceField.ASSIGNED_WORKER_SUB, ResourceField.SUPERVISOR_SUB);
        }
        for (Ruleset ruleset : List.of(georgia, texas)) {
            assertThat(ruleset.reads(ResourceType.FOSTER_HOME, Action.READ)).isEmpty();
            assertThat(ruleset.reads(ResourceType.FOSTER_HOME, Action.CREATE)).containsExactly(ADMIN_UNIT);
            assertThat(ruleset.reads(ResourceType.FOSTER_HOME, Action.UPDATE)).containsExactly(ADMIN_UNIT);
        }
    }

    @Test
    void shouldRefuseARulesetReadingAnAttributeTheLockedCompareDoesNotCoverNamingTheRuleAndTheField() {
        String capacityRule = ruleset("foster_home", "'county_director' in claims.roles && resource.attrs.capacity < 10");

        assertThatThrownBy(() -> service.compile(capacityRule, "georgia", "test"))
                .isInstanceOf(InvalidRuleset.class)
                .hasMessageContaining("rule 'the-rule'")
                .hasMessageContaining("resource.attrs.capacity")
                .hasMessageContaining("cannot re-read under the row lock of a foster_home");
    }

    @Test
    void shouldAcceptTheSameRulesetOnceTheAttributeIsPartOfTheLockedCompare() throws InvalidRuleset {
        String capacityRule = ruleset("foster_home", "'county_director' in claims.roles && resource.attrs.capacity < 10");
        RulesetCompiler lockingCapacity = new RulesetCompiler(
                LockableFields.SERVICE.withAttribute(ResourceType.FOSTER_HOME, "capacity"), EvaluationBudget.DEFAULT);

        Ruleset accepted = lockingCapacity.compile(capacityRule, "georgia", "test");

        assertThat(accepted.reads(ResourceType.FOSTER_HOME, Action.UPDATE)).containsExactly(CAPACITY);
        assertThat(StalenessGate.compared(accepted.reads(ResourceType.FOSTER_HOME, Action.UPDATE)))
                .as("what the update path compares under the row lock").contains(CAPACITY);
    }

    @Test
    void shouldRefuseARuleForTwoTypesReadingAnAttributeOnlyOneOfThemCarries() {
        String statusRule = ruleset("placement, kinship_option", "resource.attrs.status == 'PROPOSED'");

        assertThatThrownBy(() -> service.compile(statusRule, "georgia", "test"))
                .hasMessageContaining("rule 'the-rule'")
                .hasMessageContaining("resource.attrs.status")
                .hasMessageContaining("kinship_option");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            "resource.owner == claims.sub                         | resource.owner, which is not a resource field",
            "resource.attrs.admin_unit.code == 'x'                | resource.attrs.admin_unit.code, below an attribute",
            "resource.supervisor_sub.name == 'x'                  | below resource.supervisor_sub",
            "'admin_unit' in resource.attrs                       | resource.attrs as a whole",
            "resource.attrs[claims.sub] == 'x'                    | resource.attrs as a whole",
            "size(resource) > 0                                   | resource as a whole",
            "claims.email == 'x'                                  | claims.email, which no caller carries",
            "claims.roles.exists(r, r == 'admin') && claims == {} | claims as a whole",
            // root-qualified names refuse what the plain names refuse, under a shadowing variable too
            "size(.resource) > 0                                            | resource as a whole",
            "claims.roles.exists(resource, size(.resource) > 0)             | resource as a whole",
            "claims.roles.exists(claims, .claims == {})                     | claims as a whole",
            "claims.roles.exists(resource, .resource.attrs.capacity == 1)   | resource.attrs.capacity",
            "claims.roles.exists(claims, .claims.email == 'x')              | claims.email, which no caller carries",
            ".resource.owner == 'x'                                         | resource.owner, which is not a resource field",
            "claims.roles.exists(resource, claims.admin_units.exists(u, .resource.attrs.admin_unit == u)) | iterates inside an iteration",
            "cel.bind(resource, 'x', .resource.attrs.admin_unit == resource) | cel",
    })
    void shouldRefuseEveryVariablePathTheServiceCannotName(String condition, String message) {
        assertThatThrownBy(() -> service.compile(ruleset("foster_home", condition), "georgia", "test"))
                .isInstanceOf(InvalidRuleset.class)
                .hasMessageContaining("rule 'the-rule'")
                .hasMessageContaining(message);
    }

    @Test
    void shouldReadIndexedPathsAsFieldsAndLetComprehensionVariablesShadowTheGlobals() throws InvalidRuleset {
        Ruleset indexed = service.compile(ruleset("foster_home",
                "resource['attrs']['admin_unit'] in claims.admin_units && claims.roles.exists(resource, resource == 'x')"),
                "georgia", "test");

        assertThat(indexed.reads(ResourceType.FOSTER_HOME, Action.UPDATE)).containsExactly(ADMIN_UNIT);
    }

    /**
     * A leading dot names the root scope: {@code .resource} is the global even where a comprehension's
     * variable is called {@code resource}, so it is read like a plain {@code resource} and lands in the compare.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {
            ".resource.attrs.admin_unit == 'unit-1'",
            "claims.roles.exists(resource, resource == 'x' && .resource.attrs.admin_unit == 'unit-1')",
            "claims.roles.exists(resource, .resource['attrs']['admin_unit'] == resource)",
            "claims.roles.exists(resource, has(.resource.attrs.admin_unit))",
            "claims.roles.all(claims, .resource.attrs.admin_unit != '' && .claims.sub != '')",
            "claims.roles.map(resource, .resource.attrs.admin_unit).size() > 0",
    })
    void shouldReadARootQualifiedResourceLikeAPlainOneEvenUnderAShadowingVariable(String condition) throws InvalidRuleset {
        Ruleset ruleset = service.compile(ruleset("foster_home", condition), "georgia", "test");

        assertThat(ruleset.reads(ResourceType.FOSTER_HOME, Action.UPDATE)).containsExactly(ADMIN_UNIT);
    }

    @Test
    void shouldStillLetAPlainNameUnderAShadowingVariableReadTheLocal() throws InvalidRuleset {
        Ruleset ruleset = service.compile(ruleset("foster_home",
                "claims.roles.exists(resource, resource == 'admin') && has(resource.attrs.license_status)"), "georgia", "test");

        assertThat(ruleset.reads(ResourceType.FOSTER_HOME, Action.UPDATE))
                .containsExactly(ResourceField.attribute("license_status"));
    }

    @Test
    void shouldRefuseNestedIterationAtLoad() {
        assertThatThrownBy(() -> service.compile(ruleset("foster_home",
                "claims.admin_units.exists(u, claims.roles.exists(r, r == u))"), "georgia", "test"))
                .hasMessageContaining("rule 'the-rule'")
                .hasMessageContaining("iterates inside an iteration");
        assertThatThrownBy(() -> service.compile(ruleset("foster_home",
                "claims.admin_units.exists(u, u in claims.roles)"), "georgia", "test"))
                .hasMessageContaining("tests membership in a list that is not a literal inside an iteration");
    }

    @Test
    void shouldRefuseAConditionWhoseStaticCostExceedsTheBound() throws InvalidRuleset {
        String loop = ruleset("foster_home", "claims.roles.exists(r, r in ['admin', 'supervisor', 'county_director'])");
        RulesetCompiler tight = new RulesetCompiler(LockableFields.SERVICE, new EvaluationBudget(100, 10_000, 500));

        assertThat(new RulesetCompiler(LockableFields.SERVICE, new EvaluationBudget(100, 10_000, 5_000))
                .compile(loop, "georgia", "test").rules()).hasSize(1);
        assertThatThrownBy(() -> tight.compile(loop, "georgia", "test"))
                .hasMessageContaining("rule 'the-rule'")
                .hasMessageContaining("static cost")
                .hasMessageContaining("exceeds policy.budget.max-cost 500");
    }

    @Test
    void shouldDenyAndCountAnEvaluationThatExceedsItsStepBudget(@TempDir Path directory) throws IOException {
        PolicyEngine engine = unitsByLoop(directory, new EvaluationBudget(1_000, 200, 100_000));

        assertThat(engine.decide(director(10), Action.UPDATE, home("unit-3")).allowed()).isTrue();
        Decision exhausted = engine.decide(director(500), Action.UPDATE, home("unit-499"));

        assertThat(exhausted.allowed()).isFalse();
        assertThat(exhausted.overBudget()).isTrue();
        assertThat(exhausted.reason()).contains("units-by-loop", "exceeded its evaluation budget", "max-steps");
        assertThat(overBudget()).isEqualTo(1);
    }

    @Test
    void shouldDenyAndCountAnEvaluationThatExceedsItsIterationLimit(@TempDir Path directory) throws IOException {
        PolicyEngine engine = unitsByLoop(directory, new EvaluationBudget(50, 1_000_000, 1_000_000));

        Decision within = engine.decide(director(40), Action.UPDATE, home("unit-39"));
        assertThat(within.allowed()).as(within.reason()).isTrue();
        Decision exhausted = engine.decide(director(60), Action.UPDATE, home("unit-59"));

        assertThat(exhausted.allowed()).isFalse();
        assertThat(exhausted.overBudget()).as(exhausted.reason()).isTrue();
        assertThat(overBudget()).isEqualTo(1);
    }

    @Test
    @ExtendWith(OutputCaptureExtension.class)
    void shouldNameTheRuleThatExceededItsBudgetInThePagesLineAtInfo(@TempDir Path directory, CapturedOutput output)
            throws IOException {
        // Given a rule for reading homes that runs past its step budget for one home of a page and not for another
        Files.writeString(directory.resolve("georgia.yaml"), """
                jurisdiction: georgia
                version: "9.0.0"
                rules:
                  - id: units-by-loop
                    resources: [foster_home]
                    actions: [read]
                    condition: "claims.admin_units.exists(u, u == resource.attrs.admin_unit)"
                """);
        PolicyEngine engine = new PolicyEngine(new RulesetRegistry(directory, new RulesetCompiler(
                LockableFields.SERVICE, new EvaluationBudget(1_000, 200, 100_000)), RulesetArchive.NONE), meters);
        Logger decisions = (Logger) LoggerFactory.getLogger(PolicyEngine.DECISION_LOG);
        Level level = decisions.getLevel();
        decisions.setLevel(Level.INFO);
        try {
            // When the page is decided
            List<ResourceRef> readable = engine.readable(director(500), ResourceType.FOSTER_HOME,
                    List.of(home("unit-3"), home("unit-499"), home("unit-498")), resource -> resource);

            // Then its one line at INFO counts the rows over budget and names the rule, once
            assertThat(readable).hasSize(1);
            List<String> lines = output.getOut().lines().filter(line -> line.contains("decision=")).toList();
            assertThat(lines).singleElement().asString().contains("decision=PAGE").contains("over_budget=2")
                    .contains("failed=0").contains("units-by-loop exceeded its evaluation budget")
                    .containsOnlyOnce("units-by-loop");
        } finally {
            decisions.setLevel(level);
        }
    }

    /** Georgia lets a county director update homes of their units, found by a loop rather than by {@code in}. */
    private PolicyEngine unitsByLoop(Path directory, EvaluationBudget budget) throws IOException {
        Files.writeString(directory.resolve("georgia.yaml"), """
                jurisdiction: georgia
                version: "9.0.0"
                rules:
                  - id: units-by-loop
                    resources: [foster_home]
                    actions: [update]
                    condition: "claims.admin_units.exists(u, u == resource.attrs.admin_unit)"
                """);
        RulesetRegistry registry = new RulesetRegistry(directory, new RulesetCompiler(LockableFields.SERVICE, budget),
                RulesetArchive.NONE);
        assertThat(registry.versions()).containsEntry("georgia", "9.0.0");
        return new PolicyEngine(registry, meters);
    }

    private double overBudget() {
        return meters.find(PolicyEngine.OVER_BUDGET_METRIC).counters().stream().mapToDouble(c -> c.count()).sum();
    }

    private static Caller director(int units) {
        return new Caller("d-1", List.of("county_director"), "georgia",
                IntStream.range(0, units).mapToObj(i -> "unit-" + i).toList());
    }

    private static ResourceRef home(String adminUnit) {
        return new ResourceRef(ResourceType.FOSTER_HOME, UUID.randomUUID(), null, null, null,
                Map.of("admin_unit", adminUnit, "license_status", "ACTIVE"), "georgia");
    }

    private static String ruleset(String resources, String condition) {
        return """
                jurisdiction: georgia
                version: "9.0.0"
                rules:
                  - id: the-rule
                    resources: [%s]
                    actions: [update]
                    condition: "%s"
                """.formatted(resources, condition.replace("\"", "\\\""));
    }
}
