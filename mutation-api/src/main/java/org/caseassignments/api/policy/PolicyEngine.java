package org.caseassignments.api.policy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import dev.cel.common.values.NullValue;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.api.requestid.RequestIds;
import org.caseassignments.api.security.Caller;
import org.caseassignments.api.security.ServedJurisdictions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.event.Level;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Decides whether a caller may do an action on a resource, by the ruleset of the caller's
 * jurisdiction. Jurisdiction isolation comes first and is not up to the rulesets: a record of another
 * jurisdiction, or of an unknown one, is denied before any rule runs. Denies by default: no ruleset
 * for the jurisdiction, no allowing rule, or an evaluation error. Every decision is logged (logger {@value #DECISION_LOG}) with the ruleset version
 * and counted ({@code policy.decisions}); the decisions of one page of a list are logged as one line, each row's at
 * DEBUG only ({@link #readable}), so that a page's size is never a page of log lines.
 *
 * <p>Never evaluates inside a transaction: what a decision costs is up to the ruleset's authors, and
 * no row lock may be held while it is paid. Authorization happens before the transaction opens; the
 * transaction only compares what the decision consumed.
 */
public final class PolicyEngine implements ServedJurisdictions {

    public static final String DECISION_LOG = "org.caseassignments.api.policy.decisions";
    public static final String DECISIONS_METRIC = "policy.decisions";
    /** Conditions stopped for exceeding their evaluation budget (each also a denial). */
    public static final String OVER_BUDGET_METRIC = "policy.evaluations.over.budget";

    /** The claims a condition may read; the activation carries exactly these. */
    static final Set<String> CLAIMS = Set.of("sub", Caller.ROLES, Caller.JURISDICTION, Caller.ADMIN_UNITS);

    private static final Logger decisions = LoggerFactory.getLogger(DECISION_LOG);
    /** How much of a denial's reason a page's line carries. */
    private static final int PAGE_REASON = 300;

    private final RulesetRegistry registry;
    private final MeterRegistry meters;
    private final Set<String> overBudgetCounted = ConcurrentHashMap.newKeySet();
    private final CrossJurisdictionReads crossJurisdictionReads;

    PolicyEngine(RulesetRegistry registry, MeterRegistry meters) {
        this(registry, meters, CrossJurisdictionReads.NONE);
    }

    PolicyEngine(RulesetRegistry registry, MeterRegistry meters, CrossJurisdictionReads crossJurisdictionReads) {
        this.registry = registry;
        this.meters = meters;
        this.crossJurisdictionReads = crossJurisdictionReads;
        registry.versions().keySet().forEach(this::countOverBudgetFromZero);
    }

    /**
     * Throws {@link PolicyDenied} unless the caller may do {@code action} on {@code resource}. A read refused
     * before any ruleset ran (another jurisdiction's record) is told to {@link CrossJurisdictionReads} first; a
     * write's refusal is the write path's to record.
     *
     * @return the allowing decision: the ruleset version and rule a write's audit record names
     */
    public Decision require(Caller caller, Action action, ResourceRef resource) {
        Decision decision = evaluate(caller, action, resource, "current");
        if (!decision.allowed()) {
            // a record of unknown jurisdiction (a case the projection has not seen yet) is no other jurisdiction's
            if (action == Action.READ && !decision.rulesetRan() && resource.jurisdiction() != null) {
                crossJurisdictionReads.refused(caller, resource);
            }
            throw new PolicyDenied(decision);
        }
        return decision;
    }

    /** Whether the caller may do {@code action} on {@code resource}; logged as one decision. */
    public boolean allows(Caller caller, Action action, ResourceRef resource) {
        return evaluate(caller, action, resource, "current").allowed();
    }

    /**
     * Whether the caller's ruleset lets it read no resource of {@code type} at all, whatever the resource: no ruleset
     * serves its jurisdiction, or every rule for reading the type is false for the caller's claims with the resource
     * unknown (a role the rule does not name). A list asks it before it reads a row, and answers such a caller its
     * empty last page without touching the database (decision 45). When true, logged as one decision (INFO) and
     * counted as one denial.
     */
    public boolean readsNone(Caller caller, ResourceType type) {
        requireNoTransaction();
        MDC.put(RequestIds.SUB_MDC_KEY, caller.sub());
        Optional<Ruleset> ruleset = registry.forJurisdiction(caller.jurisdiction());
        boolean none = ruleset.map(rules -> rules.allowsNone(type, Action.READ, activation(caller, Action.READ, null)))
                .orElse(true);
        if (none) {
            decisions.info("decision=DENY jurisdiction={} ruleset_version={} action={} resource={}/* sub={} roles={} "
                            + "reason=\"{}\"", caller.jurisdiction(), ruleset.map(Ruleset::version).orElse(null),
                    Action.READ.wireName(), type.wireName(), caller.sub(), caller.roles(), ruleset.isEmpty()
                            ? "no ruleset serves this jurisdiction" : "no rule can allow any for these claims");
            count(false, Action.READ, type);
        }
        return none;
    }

    /**
     * The rows of one page of a list that the caller may read, in their order, each decided as its single read is
     * ({@link #allows}), all by one version of the ruleset. The page is logged as one line (INFO): how many rows were
     * decided, allowed, denied, denied over budget and denied by a rule that failed to evaluate, the first and last
     * row's ids, and the first reason a row was denied for other than no rule allowing it (the rule and its message,
     * cut to {@value #PAGE_REASON} characters): what a runbook looks for is named at INFO, once per page. Each row's
     * decision only at DEBUG. Every decision is counted.
     *
     * @param type the list's type, named in the line even when the page is empty
     */
    public <R> List<R> readable(Caller caller, ResourceType type, List<R> rows, Function<R, ResourceRef> resourceOf) {
        Optional<Ruleset> ruleset = registry.forJurisdiction(caller.jurisdiction());
        List<R> allowed = new ArrayList<>();
        int overBudget = 0;
        int failed = 0;
        String reason = null;
        for (R row : rows) {
            Decision decision = evaluate(caller, Action.READ, resourceOf.apply(row), "current", ruleset, true);
            if (decision.allowed()) {
                allowed.add(row);
                continue;
            }
            if (decision.overBudget()) {
                overBudget++;
            } else if (decision.ruleFailed()) {
                failed++;
            }
            if (reason == null && !Ruleset.NO_RULE_ALLOWS.equals(decision.reason())) {
                reason = cut(decision.reason());
            }
        }
        decisions.info("decision=PAGE jurisdiction={} ruleset_version={} action={} resource={} rows={} allowed={} "
                        + "denied={} over_budget={} failed={} first={} last={} sub={} roles={} reason=\"{}\"",
                caller.jurisdiction(), ruleset.map(Ruleset::version).orElse(null), Action.READ.wireName(),
                type.wireName(), rows.size(), allowed.size(), rows.size() - allowed.size(), overBudget, failed,
                rows.isEmpty() ? null : resourceOf.apply(rows.get(0)).id(),
                rows.isEmpty() ? null : resourceOf.apply(rows.get(rows.size() - 1)).id(), caller.sub(), caller.roles(),
                reason == null ? "" : reason);
        return allowed;
    }

    /** A reason as a page's line carries it: at most {@value #PAGE_REASON} characters, never half of one. */
    private static String cut(String reason) {
        return reason.codePointCount(0, reason.length()) <= PAGE_REASON ? reason
                : reason.substring(0, reason.offsetByCodePoints(0, PAGE_REASON)) + "…";
    }

    /**
     * An update is allowed iff the caller may update the resource as it is (before) and, when the
     * request changes something a rule can test, as it would be (after). The before-image decides
     * first and short-circuits a denial; the after-image is evaluated only when it differs in a
     * policy-visible input. Both denials look the same to the caller. Both images are decided by the
     * same ruleset version, even when a reload replaces it in between.
     *
     * @return the two allowing decisions and the resource fields the deciding ruleset's update rules for
     *         this type read: what the caller must compare between the authorized image and the locked row
     *         before writing
     */
    public UpdateAuthorization requireUpdate(Caller caller, ResourceRef before, ResourceRef after) {
        Optional<Ruleset> ruleset = registry.forJurisdiction(caller.jurisdiction());
        Decision beforeDecision = evaluate(caller, Action.UPDATE, before, "before", ruleset);
        if (!beforeDecision.allowed()) {
            throw new PolicyDenied(beforeDecision);
        }
        Decision afterDecision = null;
        if (after.differsInPolicyVisibleInput(before)) {
            afterDecision = evaluate(caller, Action.UPDATE, after, "after", ruleset);
            if (!afterDecision.allowed()) {
                throw new PolicyDenied(afterDecision);
            }
        }
        return new UpdateAuthorization(beforeDecision, afterDecision,
                ruleset.orElseThrow().reads(before.type(), Action.UPDATE));
    }

    /** Whether a ruleset serves the jurisdiction now; a token naming any other is refused (401). */
    @Override
    public boolean servesJurisdiction(String jurisdiction) {
        return registry.forJurisdiction(jurisdiction).isPresent();
    }

    /** One evaluation, logged and counted. */
    public Decision decide(Caller caller, Action action, ResourceRef resource) {
        return evaluate(caller, action, resource, "current");
    }

    private Decision evaluate(Caller caller, Action action, ResourceRef resource, String snapshot) {
        return evaluate(caller, action, resource, snapshot, registry.forJurisdiction(caller.jurisdiction()));
    }

    private Decision evaluate(Caller caller, Action action, ResourceRef resource, String snapshot,
                              Optional<Ruleset> ruleset) {
        return evaluate(caller, action, resource, snapshot, ruleset, false);
    }

    /** @param rowOfAPage logged at DEBUG, the page being one line of its own ({@link #readable}) */
    private Decision evaluate(Caller caller, Action action, ResourceRef resource, String snapshot,
                              Optional<Ruleset> ruleset, boolean rowOfAPage) {
        requireNoTransaction();
        // every log line from here to the end of the request names who and which case (RequestIdFilter clears them)
        MDC.put(RequestIds.SUB_MDC_KEY, caller.sub());
        if (resource.caseId() != null) {
            MDC.put(RequestIds.CASE_ID_MDC_KEY, resource.caseId().toString());
        }
        Decision decision = !sameJurisdiction(caller, resource)
                ? Decision.otherJurisdiction(caller.jurisdiction(), resource.jurisdiction())
                : ruleset.map(rules -> rules.evaluate(resource.type(), action, activation(caller, action, resource)))
                        .orElseGet(() -> Decision.noRuleset(caller.jurisdiction()));
        decisions.atLevel(rowOfAPage ? Level.DEBUG : Level.INFO).log("decision={} jurisdiction={} ruleset_version={} "
                        + "action={} resource={}/{} case={} snapshot={} sub={} roles={} reason=\"{}\"",
                decision.allowed() ? "ALLOW" : "DENY", caller.jurisdiction(), decision.rulesetVersion(),
                action.wireName(), resource.type().wireName(), resource.id(), resource.caseId(), snapshot,
                caller.sub(), caller.roles(), decision.reason());
        count(decision.allowed(), action, resource.type());
        if (ruleset.isPresent()) {
            countOverBudgetFromZero(caller.jurisdiction());
        }
        if (decision.overBudget()) {
            overBudget(String.valueOf(decision.jurisdiction()), action, resource.type()).increment();
        }
        return decision;
    }

    private static void requireNoTransaction() {
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("The policy engine does not evaluate inside a transaction: authorize before "
                    + "the transaction opens, so that no row lock is held while a decision is made");
        }
    }

    private void count(boolean allowed, Action action, ResourceType type) {
        Counter.builder(DECISIONS_METRIC)
                .tag("outcome", allowed ? "allow" : "deny")
                .tag("action", action.wireName())
                .tag("resource", type.wireName())
                .register(meters)
                .increment();
    }

    /**
     * Registered at 0 for every action and resource of each jurisdiction served at start, and of one served later
     * at its first decision, so that an alert's {@code increase()} sees its first evaluation over budget (a counter
     * born at 1 shows no increase).
     */
    private void countOverBudgetFromZero(String jurisdiction) {
        if (overBudgetCounted.add(jurisdiction)) {
            for (Action action : Action.values()) {
                for (ResourceType type : ResourceType.values()) {
                    overBudget(jurisdiction, action, type);
                }
            }
        }
    }


    private Counter overBudget(String jurisdiction, Action action, ResourceType type) {
        return Counter.builder(OVER_BUDGET_METRIC)
                .tag("jurisdiction", jurisdiction)
                .tag("action", action.wireName())
                .tag("resource", type.wireName())
                .register(meters);
    }

    /** Fail closed: an unknown jurisdiction (null) matches no caller. */
    private static boolean sameJurisdiction(Caller caller, ResourceRef resource) {
        return resource.jurisdiction() != null && resource.jurisdiction().equals(caller.jurisdiction());
    }

    /**
     * The three variables a condition sees. Absent values are CEL {@code null}, never missing keys.
     *
     * @param resource null for none: the claims and the action only, for a condition evaluated with the resource
     *                 unknown ({@link Rule#holdsForNoResource})
     */
    static Map<String, Object> activation(Caller caller, Action action, ResourceRef resource) {
        Map<String, Object> claims = new HashMap<>();
        claims.put("sub", orNull(caller.sub()));
        claims.put(Caller.ROLES, List.copyOf(caller.roles()));
        claims.put(Caller.JURISDICTION, orNull(caller.jurisdiction()));
        claims.put(Caller.ADMIN_UNITS, List.copyOf(caller.adminUnits()));
        if (resource == null) {
            return Map.of("claims", claims, "action", action.wireName());
        }
        Map<String, Object> attrs = new HashMap<>();
        resource.attrs().forEach((key, value) -> attrs.put(key, orNull(value)));
        Map<String, Object> ref = new HashMap<>();
        for (ResourceField field : ResourceField.topLevelFields()) {
            Object value = field.valueIn(resource);
            ref.put(field.name(), orNull(value instanceof UUID id ? id.toString() : value));
        }
        ref.put(ResourceField.ATTRS, attrs);
        return Map.of("claims", claims, "resource", ref, "action", action.wireName());
    }

    private static Object orNull(Object value) {
        return value == null ? NullValue.NULL_VALUE : value;
    }
}
