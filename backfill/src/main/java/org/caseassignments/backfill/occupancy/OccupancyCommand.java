package org.caseassignments.backfill.occupancy;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.OptionChecks;
import org.caseassignments.backfill.SummaryLines;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code backfill occupancy}: do the foster-home gate's rules hold for every row? */
@Component
@Command(name = "occupancy", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 110,
        description = {
                "Check that every ACTIVE placement is in a licensed home of its case's jurisdiction, within capacity.",
                "Lists the homes over capacity, the ACTIVE placements without a home, in an unlicensed home or in another",
                "jurisdiction's home, the homes of unknown jurisdiction holding children, and (not a failure) the PROPOSED",
                "placements in another jurisdiction's home: rows written before a rule existed or while the gate's triggers",
                "were disabled (a restore). Reads only, in one REPEATABLE READ snapshot, so the counts agree with the lines.",
                "Not during a rebuild's swap (its lock stops the check at --lock-timeout); on a replica, expect",
                "cancellations by replication conflicts: run it on the primary.", ""},
        footer = {"", "Exit codes: 0 every rule holds; 1 rows break a rule; 2 stopped (a lock or statement timeout, a",
                "database error);"})
class OccupancyCommand implements Callable<Integer> {

    /** One snapshot for every query, and no write: the counts and lines describe one state of the database. */
    private static final String SNAPSHOT = "SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY";

    @Option(names = "--max-lines", paramLabel = "N", defaultValue = "1000",
            description = "Rows listed per kind of finding; all are counted (default: ${DEFAULT-VALUE}).")
    int maxLines;

    @Option(names = "--statement-timeout", paramLabel = "DURATION", defaultValue = "5m",
            description = "Cancel any one query that runs longer (default: ${DEFAULT-VALUE}).")
    Duration statementTimeout;

    @Option(names = "--lock-timeout", paramLabel = "DURATION", defaultValue = "5s",
            description = "Stop rather than wait longer for a table another transaction holds, such as a rebuild's swap "
                    + "(default: ${DEFAULT-VALUE}).")
    Duration lockTimeout;

    @Spec
    CommandSpec spec;

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transactions;

    OccupancyCommand(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.transactions = new TransactionTemplate(transactions);
    }

    @Override
    public Integer call() {
        OptionChecks.atLeast(spec, "--max-lines", maxLines, 0);
        OptionChecks.positive(spec, "--statement-timeout", statementTimeout);
        OptionChecks.positive(spec, "--lock-timeout", lockTimeout);
        PrintWriter out = spec.commandLine().getOut();
        StringBuilder lines = new StringBuilder();
        Map<Finding, Long> counts;
        try {
            counts = transactions.execute(status -> {
                jdbc.execute(SNAPSHOT);
                jdbc.execute("SET LOCAL statement_timeout = " + statementTimeout.toMillis());
                jdbc.execute("SET LOCAL lock_timeout = " + lockTimeout.toMillis());
                Map<Finding, Long> found = new EnumMap<>(Finding.class);
                for (Finding finding : Finding.values()) {
                    found.put(finding, list(finding, lines));
                }
                return found;
            });
        } catch (DataAccessException e) {
            spec.commandLine().getErr().println("backfill occupancy: stopped: " + e.getMostSpecificCause().getMessage());
            spec.commandLine().getErr().flush();
            return ExitCodes.failure(e);
        }
        long broken = counts.entrySet().stream().filter(e -> e.getKey().breaksARule).mapToLong(Map.Entry::getValue).sum();
        out.println("backfill occupancy: " + (broken == 0
                ? "every ACTIVE placement is in a licensed home of its case's jurisdiction, within capacity"
                : broken + " findings break the foster-home gate's rules"));
        counts.forEach((finding, count) -> SummaryLines.count(out, finding.label, count));
        out.print(lines);
        out.flush();
        return broken == 0 ? ExitCodes.SUCCESS : ExitCodes.FINISHED_WITH_REJECTS;
    }

    /**
     * Appends up to {@code --max-lines} lines of {@code finding} and returns how many rows it found: the database
     * counts them, and sends only the lines listed.
     */
    private long list(Finding finding, StringBuilder lines) {
        long count = jdbc.queryForObject(finding.count, Long.class);
        if (count > 0 && maxLines > 0) {
            jdbc.query(finding.list, rs -> {
                lines.append(finding.key).append(' ').append(rs.getString("line")).append('\n');
            }, maxLines);
        }
        if (count > maxLines) {
            lines.append(String.format(Locale.ROOT, "%s: %,d more not listed (--max-lines %d)%n", finding.key,
                    count - maxLines, maxLines));
        }
        return count;
    }
}
