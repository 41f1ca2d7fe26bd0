package org.caseassignments.api.audit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * How many refusal records one subject gets in one jurisdiction: the first {@code budget} refusals of a subject
 * acting in a jurisdiction (its token's), in a window of {@code window} (which starts at its first refusal there),
 * are recorded one by one; the rest are only counted, and once the window is over one summary record, in that
 * jurisdiction's trail, says how many more there were. Any token, even one with no roles, can be refused at no cost
 * to itself; without a budget one subject could fill the audit table and the writer's queue with its own refusals.
 * Per jurisdiction, because each jurisdiction's auditors read only their own trail: one budget for a subject acting
 * in two would put one jurisdiction's refusals in the other's summary.
 */
final class RefusalBudget {

    /** Whose refusals one window counts: a subject in one jurisdiction. */
    private record Refused(String jurisdiction, String callerSub) {
    }

    /** One subject's current window: what it recorded, what it held back, and the last refusal held back. */
    private record Window(Instant start, int recorded, int held, AuditEntry last) {

        Window admitted() {
            return new Window(start, recorded + 1, held, last);
        }

        Window holding(AuditEntry refusal) {
            return new Window(start, recorded, held + 1, refusal);
        }
    }

    private final int budget;
    private final Duration window;
    private final Clock clock;
    private final Map<Refused, Window> windows = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<AuditEntry> summaries = new ConcurrentLinkedQueue<>();

    RefusalBudget(int budget, Duration window, Clock clock) {
        this.budget = budget;
        this.window = window;
        this.clock = clock;
    }

    /** Whether this refusal is recorded; when not, it is counted towards its subject's summary. */
    boolean admit(AuditEntry refusal) {
        Instant now = clock.instant();
        Refused whose = new Refused(refusal.caller().jurisdiction(), refusal.caller().sub());
        Window after = windows.compute(whose, (key, current) -> {
            if (current == null || !now.isBefore(current.start().plus(window))) {
                close(current, now);
                return new Window(now, 1, 0, null);
            }
            return current.recorded() < budget ? current.admitted() : current.holding(refusal);
        });
        // held back exactly when it became the window's last held refusal
        return after.last() != refusal;
    }

    /** The summaries of every window that is over, and forgets those windows. */
    List<AuditEntry> closeExpired() {
        Instant now = clock.instant();
        for (Refused whose : windows.keySet()) {
            windows.computeIfPresent(whose, (key, current) -> {
                if (now.isBefore(current.start().plus(window))) {
                    return current;
                }
                close(current, now);
                return null;
            });
        }
        List<AuditEntry> due = new ArrayList<>();
        for (AuditEntry summary; (summary = summaries.poll()) != null; ) {
            due.add(summary);
        }
        return due;
    }

    private void close(Window over, Instant now) {
        if (over != null && over.held() > 0) {
            summaries.add(over.last().summarising(over.held(), now));
        }
    }
}
