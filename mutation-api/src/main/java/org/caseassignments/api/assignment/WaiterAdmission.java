package org.caseassignments.api.assignment;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import org.caseassignments.api.security.Caller;

/**
 * How many requests wait for the projection, in all and per holder, and whether one more may (decision 39). Counted
 * from admission to release, whatever ends the wait: its revision reached, its time run out, its client gone, the
 * application stopping.
 */
final class WaiterAdmission {

    /** Who holds a wait: one subject of one jurisdiction (a {@code sub} is unique only within its issuer's realm). */
    record Holder(String jurisdiction, String sub) {

        static Holder of(Caller caller) {
            return new Holder(caller.jurisdiction(), caller.sub());
        }
    }

    /** Why a wait was refused, as the refusals counter's {@code reason} tag names it. */
    enum Refusal {
        GLOBAL("global"), SUBJECT("subject"), UNKNOWN_CASE("unknown_case");

        private final String tag;

        Refusal(String tag) {
            this.tag = tag;
        }

        String tag() {
            return tag;
        }
    }

    /** A holder's waits: all of them, and those for a case the projection does not know. */
    private static final class Held {
        private int all;
        private int unknown;
    }

    private final int max;
    private final int perHolder;
    private final int unknownPerHolder;
    private final Map<Holder, Held> byHolder = new HashMap<>();
    private int all;

    WaiterAdmission(int max, int perHolder, int unknownPerHolder) {
        this.max = max;
        this.perHolder = perHolder;
        this.unknownPerHolder = unknownPerHolder;
    }

    /** Counts the wait in and answers empty, or leaves the counts as they are and says which bound refused it. */
    synchronized Optional<Refusal> admit(Holder holder, boolean unknownCase) {
        Held held = byHolder.getOrDefault(holder, new Held());
        if (all >= max) {
            return Optional.of(Refusal.GLOBAL);
        }
        if (held.all >= perHolder) {
            return Optional.of(Refusal.SUBJECT);
        }
        if (unknownCase && held.unknown >= unknownPerHolder) {
            return Optional.of(Refusal.UNKNOWN_CASE);
        }
        all++;
        held.all++;
        held.unknown += unknownCase ? 1 : 0;
        byHolder.put(holder, held);
        return Optional.empty();
    }

    /** Counts out a wait {@link #admit} counted in; once per wait. */
    synchronized void release(Holder holder, boolean unknownCase) {
        Held held = byHolder.get(holder);
        if (held == null) {
            throw new IllegalStateException("a wait of " + holder + " released that was never admitted");
        }
        all--;
        held.all--;
        held.unknown -= unknownCase ? 1 : 0;
        if (held.all == 0) {
            byHolder.remove(holder);
        }
    }

    synchronized int held() {
        return all;
    }

    synchronized int holders() {
        return byHolder.size();
    }
}
