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
 */
final class RulesetCompiler {

    static final Cel CEL = CelFactory.standardCelBuilder()
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addVar("claims", MapType.create(SimpleType.STRING, SimpleType.DYN))
            .addVar("resource", MapType.create(SimpleType.STRING, SimpleType.DYN))
            .addVar("action", SimpleType.STRING)
            .setResultType(SimpleType.BOOL)
            .build();

    private static final Set<String> DOCUMENT_KEYS = Set.of("jurisdiction", "version", "description", "rules");
    private static final Set<String> RULE_KEYS = Set.of("id", "description", "resources", "actions", "condition");

    private RulesetCompiler() {
    }

    /**
     * @param expectedJurisdiction the jurisdiction the file's name promises; the document must agree
     * @param origin               where the text came from, for logs
     */
    static Ruleset compile(String text, String expectedJurisdiction, String origin) throws InvalidRuleset {
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
        return new Ruleset(jurisdiction, version, List.copyOf(compiled), origin);
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

    private static Rule rule(Object node, String where) throws InvalidRuleset {
        if (!(node instanceof Map<?, ?> map)) {
            throw new InvalidRuleset(where + " must be a mapping");
        }
        String id = requiredString(map, "id", where);
        where = "rule '" + id + "'";
        unknownKeys(map, RULE_KEYS, where);
        Set<ResourceType> resources = names(map, "resources", where, ResourceType.class, ResourceType::fromWireName);
        Set<Action> actions = names(map, "actions", where, Action.class, Action::fromWireName);
        String condition = requiredString(map, "condition", where);
        return new Rule(id, resources, actions, condition, program(condition, where));
    }

    private static CelRuntime.Program program(String condition, String where) throws InvalidRuleset {
        CelValidationResult result = CEL.compile(condition);
        if (result.hasError()) {
            throw new InvalidRuleset(where + ": the condition does not compile: " + result.getErrorString());
        }
        try {
            return CEL.createProgram(result.getAst());
        } catch (CelValidationException | CelEvaluationException e) {
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
