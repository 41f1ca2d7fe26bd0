package org.caseassignments.backfill.history;

import java.io.PrintWriter;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.OptionalDouble;
import java.util.UUID;
import java.util.concurrent.Callable;

import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.OptionChecks;
import org.caseassignments.backfill.SummaryLines;
import org.caseassignments.backfill.progress.Progress;
import org.caseassignments.backfill.progress.ProgressOptions;
import org.caseassignments.store.history.SupersededHistory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code backfill history-purge}: the assignments' history cut to the retention. */
@Component
@Command(name = "history-purge", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 110,
        description = {
                "Delete entries of the assignments' history older than the retention.",
                "An entry is older when its occurred_at (or, for a snapshot row, when it was recorded) is before now minus",
                "--older-than (default: the HISTORY_RETENTION setting). For each case the newest such entry stays: it was",
                "in force at that moment, so as_of answers for any later time do not change. In batches of cases, one",
                "transaction each; safe alongside the projector and the API.", ""},
        footer = {"", "Exit codes: 0 finished (dry run: nothing to delete); 1 dry run found entries to delete;",
                "2 stopped by a failure (run again: it is idempotent); 64 also when no retention is given."})
class HistoryPurgeCommand implements Callable<Integer> {

    @Option(names = "--older-than", paramLabel = "DURATION",
            description = "Delete what is older than this, e.g. 3650d or P3650D; default: HISTORY_RETENTION.")
    Duration olderThan;

    @Option(names = "--dry-run", description = "Only count what would be deleted.")
    boolean dryRun;

    @Option(names = "--batch-size", paramLabel = "CASES", defaultValue = "1000",
            description = "Cases per transaction (default: ${DEFAULT-VALUE}).")
    int batchSize;

    @Mixin
    ProgressOptions progress;

    @Spec
    CommandSpec spec;

    private final SupersededHistory history;
    private final TransactionTemplate transaction;
    private final HistoryProperties properties;
    private final Clock clock = Clock.systemUTC();

    HistoryPurgeCommand(JdbcTemplate jdbc, PlatformTransactionManager transactions, HistoryProperties properties) {
        this.history = new SupersededHistory(jdbc);
        this.transaction = new TransactionTemplate(transactions);
        this.properties = properties;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        OptionChecks.atLeast(spec, "--batch-size", batchSize, 1);
        OptionChecks.positive(spec, "--older-than", olderThan);
        try {
            Duration retention = olderThan != null ? olderThan : properties.retention();
            if (retention == null || retention.isNegative() || retention.isZero()) {
                err.println("backfill history-purge: give --older-than or set a positive HISTORY_RETENTION (history is "
                        + "kept forever by default)");
                return ExitCodes.USAGE;
            }
            Timestamp horizon = Timestamp.from(Instant.now(clock).minus(retention));
            long[] totals = purge(horizon, progress.start(err, "cases"));
            out.println("backfill history-purge" + (dryRun ? " --dry-run: nothing deleted" : ": finished"));
            out.println("  entries older than " + horizon.toInstant() + ", each superseded by one also older");
            SummaryLines.count(out, "cases visited", totals[0]);
            SummaryLines.count(out, dryRun ? "entries to delete" : "entries deleted", totals[1]);
            return dryRun && totals[1] > 0 ? ExitCodes.FINISHED_WITH_REJECTS : ExitCodes.SUCCESS;
        } catch (DataAccessException e) {
            err.println("backfill history-purge: stopped: " + e.getMostSpecificCause().getMessage()
                    + "; every batch before it is committed, run it again");
            return ExitCodes.failure(e);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /** @return {cases visited, entries deleted (or, on a dry run, to delete)} */
    private long[] purge(Timestamp horizon, Progress bar) {
        long[] totals = new long[2];
        UUID after = null;
        while (true) {
            List<UUID> cases = history.nextCases(after, batchSize);
            if (cases.isEmpty()) {
                break;
            }
            Long entries = dryRun
                    ? history.count(cases, horizon)
                    : transaction.execute(status -> (long) history.delete(cases, horizon));
            totals[0] += cases.size();
            totals[1] += entries == null ? 0 : entries;
            after = cases.get(cases.size() - 1);
            bar.update(totals[0], OptionalDouble.empty(), totals[1] + (dryRun ? " to delete" : " deleted"));
        }
        bar.finish(totals[0], OptionalDouble.of(1.0));
        return totals;
    }
}
