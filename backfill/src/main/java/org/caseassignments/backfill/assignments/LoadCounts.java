package org.caseassignments.backfill.assignments;

import java.util.Map;

import org.caseassignments.store.ApplyResult;
import org.caseassignments.store.Outcome;

/**
 * The counts of a run; kept in the checkpoint, so a resumed run reports the whole run.
 * {@code read = inserted + advanced + converged + unchanged + skippedOlder + superseded + rejected}.
 */
final class LoadCounts {

    long read;
    long inserted;
    long advanced;
    long converged;
    long unchanged;
    long skippedOlder;
    /** Rows a later row of the same case in the same batch replaced before the write (the higher revision wins). */
    long superseded;
    long rejected;
    long entityRowsUpdated;

    /** @param rows the batch's rows PostgreSQL did not refuse (refused rows count as rejected) */
    void add(int rows, ApplyResult result) {
        Map<Outcome, Integer> counts = result.outcomeCounts();
        inserted += counts.get(Outcome.INSERTED);
        advanced += counts.get(Outcome.ADVANCED);
        converged += counts.get(Outcome.CONVERGED);
        unchanged += counts.get(Outcome.UNCHANGED);
        skippedOlder += counts.get(Outcome.SKIPPED_OLDER);
        // Per case, not per proposal: a batch bisected around a row PostgreSQL refused may propose a case twice.
        superseded += rows - result.outcomes().size();
        entityRowsUpdated += result.entityRowsUpdated();
    }
}
