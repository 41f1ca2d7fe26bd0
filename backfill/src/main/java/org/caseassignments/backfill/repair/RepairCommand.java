package org.caseassignments.backfill.repair;

import java.io.PrintWriter;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;

import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.OptionChecks;
import org.caseassignments.backfill.SummaryLines;
import org.caseassignments.backfill.progress.Progress;
import org.caseassignments.backfill.progress.ProgressOptions;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.store.FollowedRows;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code backfill repair}: entity copies brought to their case's projection row. */
@Component
@Command(name = "repair", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 110,
        description = {
                "Bring placement and kinship copies of the assignment along to their case's projection row.",
                "Bring placement and kinship rows whose assignment copy is behind their case's projection row, or at its",
                "revision with another pair, to the projection's worker, supervisor and revision: in batches of cases, one",
                "transaction each, the case rows held FOR SHARE first (the lock order of the projector and the API), never",
                "moving a copy to an older revision. Safe alongside the projector and the API. Copies ahead of their case",
                "are reported, never lowered.", ""},
        footer = {"", "Exit codes: 0 nothing left to repair (dry run: nothing differs); 1 dry run found copies that differ,",
                "or copies ahead of their case remain; 2 stopped by a failure (run again: it is idempotent)."})
class RepairCommand implements Callable<Integer> {

    @Option(names = "--dry-run", description = "Only count the copies that differ; write nothing.")
    boolean dryRun;

    @Option(names = "--batch-size", paramLabel = "CASES", defaultValue = "500",
            description = "Cases per transaction (default: ${DEFAULT-VALUE}).")
    int batchSize;

    @Mixin
    ProgressOptions progress;

    @Spec
    CommandSpec spec;

    private final JdbcTemplate jdbc;
    private final AssignmentWriter writer;
    private final TransactionTemplate transaction;

    RepairCommand(JdbcTemplate jdbc, AssignmentWriter writer, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.writer = writer;
        this.transaction = new TransactionTemplate(transactions);
    }

    @Override
    public Integer call() {
        OptionChecks.atLeast(spec, "--batch-size", batchSize, 1);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            EntityCopies copies = new EntityCopies(jdbc);
            EntityCopies.Counts before = copies.count();
            if (dryRun) {
                out.println("backfill repair --dry-run: nothing written");
                before.print(out);
                return before.differing() == 0 ? ExitCodes.SUCCESS : ExitCodes.FINISHED_WITH_REJECTS;
            }
            long[] repaired = repair(copies, progress.start(err, "cases"), before.repairable());
            EntityCopies.Counts after = copies.count();
            out.println("backfill repair: finished");
            SummaryLines.count(out, "cases visited", repaired[0]);
            SummaryLines.count(out, "placements repaired", repaired[1]);
            SummaryLines.count(out, "kinship options repaired", repaired[2]);
            after.print(out);
            return after.differing() == 0 ? ExitCodes.SUCCESS : ExitCodes.FINISHED_WITH_REJECTS;
        } catch (DataAccessException e) {
            err.println("backfill repair: stopped: " + e.getMessage() + " (" + e.getMostSpecificCause().getMessage()
                    + "); every batch before it is committed, run it again");
            return ExitCodes.failure(e);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /**
     * Walks the differing cases in case-id order, a batch per transaction. A case that moves meanwhile is handled by
     * the projector's own follow or, when it is found again, by the next batch; the store's guard decides under the
     * lock, so a copy the projector has already advanced is left alone.
     *
     * @return {cases visited, placements repaired, kinship options repaired}
     */
    private long[] repair(EntityCopies copies, Progress bar, long expected) {
        long[] totals = new long[3];
        UUID after = null;
        while (true) {
            List<UUID> cases = copies.nextCases(after, batchSize);
            if (cases.isEmpty()) {
                break;
            }
            FollowedRows repaired = transaction.execute(status -> writer.repairFollowers(cases));
            totals[0] += cases.size();
            totals[1] += repaired.placements();
            totals[2] += repaired.kinshipOptions();
            after = cases.get(cases.size() - 1);
            long done = totals[1] + totals[2];
            bar.update(totals[0], expected == 0 ? java.util.OptionalDouble.empty()
                    : java.util.OptionalDouble.of(Math.min(1.0, (double) done / expected)), "");
        }
        bar.finish(totals[0], java.util.OptionalDouble.of(1.0));
        return totals;
    }
}
