package org.caseassignments.api.policy;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.Optional;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

/**
 * Parses a ruleset document (YAML, or JSON, which is YAML too) and compiles every condition against
 * the one declared environment: {@code claims} and {@code resource} are maps from string to dyn,
 * {@code action} is a string, the standard macros ({@code exists}, {@code all}, {@code has}, …) are
 * available, and a condition must have type bool. An undeclared variable, a syntax
 * error or a non-bool condition rejects the whole document.
 *
 * <p>Then every checked condition is vetted ({@link ConditionAnalysis}): each resource field it reads
 * must be one the service re-reads under the row lock of every resource type the rule applies to
 * ({@link LockableFields}), each claim one a caller carries, and its static cost within the
 * {@link EvaluationBudget}. A refusal names the rule and the field. The programs are built with the
 * budget's iteration limit; the step limit is enforced when they run ({@link Ruleset}).
 */
final class RulesetCompiler {

    private static final Set<String> DOCUMENT_KEYS = Set.of("jurisdiction", "version", "description", "rules");
    private static final Set<String> RULE_KEYS = Set.of("id", "description", "resources", "actions", "condition");

    private final Cel cel;
    /** The same environment with CEL's unknowns tracked: what a condition is for any resource (Rule#overAnyResource). */
    private final Cel overAnyResource;
    private final LockableFields lockable;
    private final EvaluationBudget budget;

    RulesetCompiler(LockableFields lockable, EvaluationBudget budget) {
        this.lockable = lockable;
        this.budget = budget;
        this.cel = cel(budget, false);
        this.overAnyResource = cel(budget, true);
    }

    private static Cel cel(EvaluationBudget budget, boolean unknowns) {
        return CelFactory.standardCelBuilder()
                .setOptions(CelOptions.current().comprehensionMaxIterations(budget.maxIterations())
                        .enableUnknownTracking(unknowns).build())
                .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
                .addVar(ConditionAnalysis.CLAIMS, MapType.create(SimpleType.STRING, SimpleType.DYN))
                .addVar(ConditionAnalysis.RESOURCE, MapType.create(SimpleType.STRING, SimpleType.DYN))
                .addVar("action", SimpleType.STRING)
                .setResultType(SimpleType.BOOL)
                .build();
    }

    /** What this build re-reads under the lock, with the default budget. */
    static RulesetCompiler service() {
        return new RulesetCompiler(LockableFields.SERVICE, EvaluationBudget.DEFAULT);
    }

    /**
     * @param expectedJurisdiction the jurisdiction the file's name promises; the document must agree
     * @param origin               where the text came from, for logs
     */
    Ruleset compile(String text, String expectedJurisdiction, String origin) throws InvalidRuleset {
        Map<?, ?> document = parse(text);
        unknownKeys(document, DOCUMENT_KEYS, "the document");
        String jurisdiction = requiredString(document, "jurisdiction", "the document");
        if (!jurisdiction.equals(expectedJurisdiction)) {
            throw new InvalidRuleset("the document declares jurisdiction '" + jurisdiction + "' but its file is named for '"
                    + expectedJurisdiction + "'");
        }
        String version = requiredString(document, "version", "the document");
        if (!(document.get("rules") instanceof List<?> rules) || rules.isEmpty()) {
            throw new InvalidRuleset("'rules' must be a non-empty list");
        }
        List<Rule> compiled = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (int i = 0; i < rules.size(); i++) {
            Rule rule = rule(rules.get(i), "rule #" + (i + 1));
            if (!ids.add(rule.id())) {
                throw new InvalidRuleset("rule id '" + rule.id() + "' is used twice");
            }
            compiled.add(rule);
        }
        return new Ruleset(jurisdiction, version, List.copyOf(compiled), origin, budget);
    }

    private static Map<?, ?> parse(String text) throws InvalidRuleset {
        Object root;
        try {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
        } catch (YAMLException e) {
            throw new InvalidRuleset("not valid YAML or JSON: " + e.getMessage());
        }
        if (!(root instanceof Map<?, ?> document)) {
            throw new InvalidRuleset("the document must be a mapping with jurisdiction, version and rules");
        }
        return document;
    }

    private Rule rule(Object node, String where) throws InvalidRuleset {
        if (!(node instanceof Map<?, ?> map)) {
            throw new InvalidRuleset(where + " must be a mapping");
        }
        String id = requiredString(map, "id", where);
        where = "rule '" + id + "'";
        unknownKeys(map, RULE_KEYS, where);
        Set<ResourceType> resources = names(map, "resources", where, ResourceType.class, ResourceType::fromWireName);
        Set<Action> actions = names(map, "actions", where, Action.class, Action::fromWireName);
        String condition = requiredString(map, "condition", where);
        CelAbstractSyntaxTree ast = check(condition, where);
        Set<ResourceField> reads = vet(ast, resources, where);
        return new Rule(id, resources, actions, condition, program(cel, ast, where), reads,
                program(overAnyResource, ast, where));
    }

    private CelAbstractSyntaxTree check(String condition, String where) throws InvalidRuleset {
        CelValidationResult result = cel.compile(condition);
        if (result.hasError()) {
            throw new InvalidRuleset(where + ": the condition does not compile: " + result.getErrorString());
        }
        try {
            return result.getAst();
        } catch (CelValidationException e) {
            throw new InvalidRuleset(where + ": the condition does not compile: " + e.getMessage());
        }
    }

    /** D5 and D2 at load: every field read is lockable for every type the rule applies to; the cost is bounded. */
    private Set<ResourceField> vet(CelAbstractSyntaxTree ast, Set<ResourceType> resources, String where)
            throws InvalidRuleset {
        ConditionAnalysis.Result analysis;
        try {
            analysis = ConditionAnalysis.of(ast, PolicyEngine.CLAIMS, budget.maxIterations());
        } catch (ConditionAnalysis.Refused e) {
            throw new InvalidRuleset(where + ": the condition " + e.getMessage());
        }
        for (ResourceType type : resources) {
            for (ResourceField field : analysis.resourceReads()) {
                if (!lockable.of(type).contains(field)) {
                    throw new InvalidRuleset(where + ": the condition reads " + field + ", which the service cannot "
                            + "re-read under the row lock of a " + type.wireName() + " (it can: "
                            + lockable.of(type).stream().map(ResourceField::path).sorted().toList()
                            + "); a decision on it could not be rechecked before the write");
                }
            }
        }
        if (analysis.cost() > budget.maxCost()) {
            throw new InvalidRuleset(where + ": the condition's static cost " + analysis.cost()
                    + " exceeds policy.budget.max-cost " + budget.maxCost()
                    + " (nodes, those in a loop counted policy.budget.max-iterations times)");
        }
        return analysis.resourceReads();
    }

    private static CelRuntime.Program program(Cel cel, CelAbstractSyntaxTree ast, String where) throws InvalidRuleset {
        try {
            return cel.createProgram(ast);
        } catch (CelEvaluationException e) {
            throw new InvalidRuleset(where + ": the condition cannot be planned: " + e.getMessage());
        }
    }

    private static <E extends Enum<E>> Set<E> names(Map<?, ?> map, String key, String where, Class<E> type,
                                                    Function<String, Optional<E>> byName) throws InvalidRuleset {
        if (!(map.get(key) instanceof List<?> list) || list.isEmpty()) {
            throw new InvalidRuleset(where + ": '" + key + "' must be a non-empty list");
        }
        Set<E> values = EnumSet.noneOf(type);
        for (Object name : list) {
            Optional<E> value = byName.apply(String.valueOf(name));
            if (value.isEmpty()) {
                throw new InvalidRuleset(where + ": unknown " + key + " entry '" + name + "'");
            }
            values.add(value.get());
        }
        return values;
    }

    private static String requiredString(Map<?, ?> map, String key, String where) throws InvalidRuleset {
        Object value = map.get(key);
        if (!(value instanceof String text) || text.isBlank()) {
            throw new InvalidRuleset(where + ": '" + key + "' must be a non-blank string (quote versions like \"1.1.0\")");
        }
        return text;
    }

    private static void unknownKeys(Map<?, ?> map, Set<String> known, String where) throws InvalidRuleset {
        for (Object key : map.keySet()) {
            if (!known.contains(String.valueOf(key))) {
                throw new InvalidRuleset(where + ": unknown key '" + key + "' (known: " + known + ")");
            }
        }
    }
}
