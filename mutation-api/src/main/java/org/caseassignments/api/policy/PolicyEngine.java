package org.caseassignments.api.policy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import dev.cel.common.values.NullValue;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.api.requestid.RequestIds;
import org.caseassignments.api.security.Caller;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Decides whether a caller may do an action on a resource, by the ruleset of the caller's
 * jurisdiction. Jurisdiction isolation comes first and is not up to the rulesets: a record of another
 * jurisdiction, or of an unknown one, is denied before any rule runs. Denies by default: no ruleset
 * for the jurisdiction, no allowing rule, or an evaluation error. Every decision is logged (logger {@value #DECISION_LOG}) with the ruleset version
 * and counted ({@code policy.decisions}).
 *
 * <p>Never evaluates inside a transaction: what a decision costs is up to the ruleset's authors, and
 * no row lock may be held while it is paid. Authorization happens before the transaction opens; the
 * transaction only compares what the decision consumed.
 */
public final class PolicyEngine {

    public static final String DECISION_LOG = "org.caseassignments.api.policy.decisions";
    public static final String DECISIONS_METRIC = "policy.decisions";
    /** Conditions stopped for exceeding their evaluation budget (each also a denial). */
    public static final String OVER_BUDGET_METRIC = "policy.evaluations.over.budget";

    /** The claims a condition may read; the activation carries exactly these. */
    static final Set<String> CLAIMS = Set.of("sub", Caller.ROLES, Caller.JURISDICTION, Caller.ADMIN_UNITS);

    private static final Logger decisions = LoggerFactory.getLogger(DECISION_LOG);

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

    /** Whether the caller may do {@code action} on {@code resource} (for filtering lists). */
    public boolean allows(Caller caller, Action action, ResourceRef resource) {
        return evaluate(caller, action, resource, "current").allowed();
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
        if (TransactionSynchronizationManager.isActualTransactionActive()) {
            throw new IllegalStateException("The policy engine does not evaluate inside a transaction: authorize before "
                    + "the transaction opens, so that no row lock is held while a decision is made");
        }
        // every log line from here to the end of the request names who and which case (RequestIdFilter clears them)
        MDC.put(RequestIds.SUB_MDC_KEY, caller.sub());
        if (resource.caseId() != null) {
            MDC.put(RequestIds.CASE_ID_MDC_KEY, resource.caseId().toString());
        }
        Decision decision = !sameJurisdiction(caller, resource)
                ? Decision.otherJurisdiction(caller.jurisdiction(), resource.jurisdiction())
                : ruleset.map(rules -> rules.evaluate(resource.type(), action, activation(caller, action, resource)))
                        .orElseGet(() -> Decision.noRuleset(caller.jurisdiction()));
        decisions.info("decision={} jurisdiction={} ruleset_version={} action={} resource={}/{} case={} snapshot={} "
                        + "sub={} roles={} reason=\"{}\"",
                decision.allowed() ? "ALLOW" : "DENY", caller.jurisdiction(), decision.rulesetVersion(),
                action.wireName(), resource.type().wireName(), resource.id(), resource.caseId(), snapshot,
                caller.sub(), caller.roles(), decision.reason());
        Counter.builder(DECISIONS_METRIC)
                .tag("outcome", decision.allowed() ? "allow" : "deny")
                .tag("action", action.wireName())
                .tag("resource", resource.type().wireName())
                .register(meters)
                .increment();
        if (ruleset.isPresent()) {
            countOverBudgetFromZero(caller.jurisdiction());
        }
        if (decision.overBudget()) {
            overBudget(String.valueOf(decision.jurisdiction()), action, resource.type()).increment();
        }
        return decision;
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

    /** The three variables a condition sees. Absent values are CEL {@code null}, never missing keys. */
    static Map<String, Object> activation(Caller caller, Action action, ResourceRef resource) {
        Map<String, Object> claims = new HashMap<>();
        claims.put("sub", orNull(caller.sub()));
        claims.put(Caller.ROLES, List.copyOf(caller.roles()));
        claims.put(Caller.JURISDICTION, orNull(caller.jurisdiction()));
        claims.put(Caller.ADMIN_UNITS, List.copyOf(caller.adminUnits()));
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
