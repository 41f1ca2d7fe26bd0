package org.caseassignments.store;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Writes a batch, and when PostgreSQL rejects it for its data ({@link DatabaseRejection}) finds the
 * rows that cause it by bisection: each half is written in its own transaction, down to single rows, so
 * every good row is applied and only the offending ones are returned, in
 * {@code O(offenders × log(batch))} transactions. A transient failure is thrown as it is, for the caller
 * to retry the whole batch (halves that committed before it are applied again, harmlessly, under the
 * guard). Halves are written in the batch's order, one after the other, so each transaction keeps the
 * writer's lock order and later rows of a case still follow earlier ones. The one implementation used by
 * the projector, the replay and the snapshot load.
 */
public final class BatchIsolation {

    /** An item PostgreSQL refused on its own. */
    public record Refused<T>(T item, DatabaseRejection rejection) {
    }

    /** What was applied (summed over the transactions that committed), and what was refused. */
    public record Isolated<T>(ApplyResult result, List<Refused<T>> refused) {
    }

    private BatchIsolation() {
    }

    /**
     * @param items          what to write, in order
     * @param update         each item's update
     * @param oneTransaction writes the updates it is given in one transaction (rolled back if it throws)
     */
    public static <T> Isolated<T> apply(List<T> items, Function<T, AssignmentUpdate> update,
                                        Function<List<AssignmentUpdate>, ApplyResult> oneTransaction) {
        List<Refused<T>> refused = new ArrayList<>();
        ApplyResult result = apply(items, update, oneTransaction, refused);
        return new Isolated<>(result, refused);
    }

    private static <T> ApplyResult apply(List<T> items, Function<T, AssignmentUpdate> update,
                                         Function<List<AssignmentUpdate>, ApplyResult> oneTransaction,
                                         List<Refused<T>> refused) {
        if (items.isEmpty()) {
            return ApplyResult.NONE;
        }
        List<AssignmentUpdate> updates = new ArrayList<>(items.size());
        items.forEach(item -> updates.add(update.apply(item)));
        try {
            return oneTransaction.apply(updates);
        } catch (RuntimeException e) {
            DatabaseRejection rejection = DatabaseRejection.of(e).orElseThrow(() -> e);
            if (items.size() == 1) {
                refused.add(new Refused<>(items.get(0), rejection));
                return ApplyResult.NONE;
            }
            int half = items.size() / 2;
            ApplyResult first = apply(items.subList(0, half), update, oneTransaction, refused);
            return first.plus(apply(items.subList(half, items.size()), update, oneTransaction, refused));
        }
    }
}
