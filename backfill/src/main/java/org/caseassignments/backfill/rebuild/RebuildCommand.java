package org.caseassignments.backfill.rebuild;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.caseassignments.backfill.EventTopics;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.OptionChecks;
import org.caseassignments.backfill.SummaryLines;
import org.caseassignments.backfill.progress.Progress;
import org.caseassignments.backfill.progress.ProgressOptions;
import org.caseassignments.backfill.repair.EntityCopies;
import org.caseassignments.backfill.snapshot.SnapshotSourceException;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.ingest.SchemaRegistryProperties;
import org.caseassignments.schemas.serde.SerdeSettings;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.store.BatchWriter;
import org.caseassignments.store.rebuild.Deadline;
import org.caseassignments.store.rebuild.ShadowTables;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.core.NestedRuntimeException;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionException;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.transaction.support.TransactionTemplate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code backfill rebuild}: a fresh projection from the topics, built beside the live one and swapped in. */
@Component
@Command(name = "rebuild", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 110,
        description = {
                "Rebuild the projection from the event topics beside the live one and swap it in; undo; dry run.",
                "Build a fresh projection from the beginning of the case event topics into a shadow table, through the",
                "projector's decode and the never-rewind guard, while the projector and the API keep running; catch it up",
                "to the live end and swap it in under a short lock. The replaced table is kept as case_assignments_previous",
                "until --drop-previous, so --undo can put it back. Unlike replay, a rebuild can lower a revision (with",
                "--allow-lower): it corrects rows no event explains (an inflated snapshot, a restored database, an earlier bug).",
                "The swap holds the projection's lock at most --swap-within; a truncated history needs --from-snapshot.", ""},
        footer = {"", "Exit codes: 0 swapped (dry run: no difference), undone or dropped; 1 dry run found differences, or",
                "the swap was refused because it would drop or lower live rows; 2 refused to start (truncated",
                "history, unreadable framing, a kept previous table), or stopped by a failure or by a table another run",
                "or an operator put in the projection's place; this run left the live table as it was;",
                "4 another rebuild, undo or --drop-previous is running (refused at once, nothing changed). Records passed",
                "over (bad input, unknown schema ids, as the projector dead-letters them) are counted, not an exit code."})
public class RebuildCommand implements Callable<Integer> {


    @Option(names = "--topics", paramLabel = "TOPIC", split = ",",
            description = "Case event topics (default: backfill.rebuild.topics, $CASE_EVENTS_TOPICS, case.events).")
    List<String> topics;

    @Option(names = "--dry-run", description = "Build the shadow to the live end and report how it differs from the "
            + "live projection and which entity copies differ; swap nothing, drop the shadow.")
    boolean dryRun;

    @Option(names = "--sample", paramLabel = "N", defaultValue = "10",
            description = "Cases of each kind of difference to list (default: ${DEFAULT-VALUE}).")
    int sample;

    @Option(names = "--allow-missing-cases", description = "Swap even when cases of the live table are in no event "
            + "of the topics (retention dropped them, or a snapshot loaded them): they are gone after the swap.")
    boolean allowMissingCases;

    @Option(names = "--allow-lower", description = "Swap even when it lowers live rows below their revision (rows no "
            + "event explains: an inflated snapshot, a restored database); the dry run says how many.")
    boolean allowLower;

    @Option(names = "--from-snapshot", paramLabel = "FILE", description = "Seed the shadow from this snapshot (CSV or "
            + "JSON Lines, as `assignments --file`) before the events: needed when the topics' history is truncated.")
    Path fromSnapshot;

    @Option(names = "--undo", description = "Put the previous projection back, with every row the rebuilt one holds "
            + "at a higher revision carried back under the guard; the rebuilt one is kept as the previous, marked undone: "
            + "a second --undo refuses (a new rebuild is the redo).")
    boolean undo;

    @Option(names = "--drop-previous", description = "Drop the projection an earlier swap replaced; no undo after this.")
    boolean dropPrevious;

    @Option(names = "--batch-size", paramLabel = "EVENTS", defaultValue = "20000",
            description = "Most events per transaction into the shadow (default: ${DEFAULT-VALUE}).")
    int batchSize;

    @Option(names = "--swap-within", paramLabel = "DURATION",
            description = "Longest the swap may hold the projection's lock, e.g. 1s or 500ms; a bare number is "
                    + "refused (it was an event count in earlier versions) (default: backfill.rebuild.swap-within, "
                    + "1s); a tail that would not fit is read outside the lock first.")
    Duration swapWithin;

    @Option(names = "--swap-lock-timeout", paramLabel = "DURATION",
            description = "Longest one attempt waits for the lock, e.g. 500ms or 2s (default: "
                    + "backfill.rebuild.swap-lock-timeout, 500ms).")
    Duration swapLockTimeout;

    @Option(names = "--swap-lock-timeout-ms", paramLabel = "MS", hidden = true,
            description = "Deprecated: --swap-lock-timeout in milliseconds; goes in the next release.")
    Long swapLockTimeoutMs;

    @Mixin
    ProgressOptions progress;

    @Spec
    CommandSpec spec;

    private final MeterRegistry meters;
    private final KafkaProperties kafka;
    private final SchemaRegistryProperties registry;
    private final RebuildProperties properties;
    private final JdbcTemplate jdbc;
    private final PlatformTransactionManager transactions;
    private final PlatformTransactionManager swaps;
    private final ShadowTables tables;

    RebuildCommand(KafkaProperties kafka, SchemaRegistryProperties registry, RebuildProperties properties,
                   JdbcTemplate jdbc, MeterRegistry meters) {
        this.meters = meters;
        this.kafka = kafka;
        this.registry = registry;
        this.properties = properties;
        DataSource tagged = new TaggedConnections(jdbc.getDataSource(), RebuildClaim.whoAmI());
        this.jdbc = new JdbcTemplate(tagged);
        this.transactions = new JdbcTransactionManager(tagged);
        // The swap's and the undo's transactions: a commit that fails throws its own failure, with the SQLSTATE that
        // says whether the session ended. JdbcTransactionManager translates it and then rolls back, on a connection the
        // pool has closed by then, and that rollback's failure, without a SQLSTATE, replaces it. The shadow's writes
        // inside them (ShadowTransactions, on the same data source) join them as savepoints.
        this.swaps = new DataSourceTransactionManager(tagged);
        this.tables = new ShadowTables(this.jdbc);
    }

    @Override
    public Integer call() {
        checkOptions();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (RebuildClaim claim = RebuildClaim.take(jdbc.getDataSource())) {
            tables.noteTables();
            if (undo || dropPrevious) {
                return undo ? undo(out, err, claim) : dropPrevious(out, err);
            }
            if (!dryRun && tables.exists(ShadowTables.PREVIOUS)) {
                err.println("backfill rebuild: an earlier swap's projection is still kept as " + ShadowTables.PREVIOUS
                        + ": put it back with --undo or drop it with --drop-previous first");
                return ExitCodes.COULD_NOT_START;
            }
            return build(out, err, claim);
        } catch (RebuildClaim.Held e) {
            err.println("backfill rebuild: refused — another rebuild is running: " + e.getMessage() + ". One rebuild, "
                    + "undo or --drop-previous runs at a time, and this one never touches the other's shadow: wait for it "
                    + "to end, or end it (stop its process; a frozen one: SELECT pg_terminate_backend(pid) for its "
                    + "sessions). Nothing was changed");
            return ExitCodes.ANOTHER_RUN;
        } catch (EventTopics.UnreadableFraming e) {
            err.println("backfill rebuild: refused — " + e.getMessage() + "; the live projection is unchanged");
            return ExitCodes.COULD_NOT_START;
        } catch (ShadowTables.Changed e) {
            // Found before this run's transaction could commit: nothing of the other run's (or operator's) is touched.
            err.println("backfill rebuild: stopped — " + e.getMessage() + ". See which table case_assignments is (its "
                    + "comment says whether a rebuild replaced it) and what else holds a rebuild's table names before "
                    + "running the rebuild again");
            return ExitCodes.COULD_NOT_START;
        } catch (KafkaException | DataAccessException | TransactionException | IllegalStateException
                 | SnapshotSourceException e) {
            return stopped(err, e);
        } finally {
            out.flush();
            err.flush();
        }
    }

    /**
     * A run stopped by a failure says what the projection is then, read again on a new session: a transaction whose
     * session ended may have committed first. A swap or undo that did is the run's work done (exit 0).
     */
    private int stopped(PrintWriter err, RuntimeException e) {
        String failure = described(e);
        ShadowTables.Projection projection;
        try {
            projection = tables.projection();
        } catch (DataAccessException | TransactionException unknown) {
            err.println("backfill rebuild: stopped: " + failure + "; whether the projection changed could not be read ("
                    + unknown.getMessage() + "): see which table case_assignments is (its comment says whether a "
                    + "rebuild replaced it) before running the rebuild again");
            return ExitCodes.failure(e);
        }
        if (projection == ShadowTables.Projection.SWAPPED || projection == ShadowTables.Projection.UNDONE) {
            err.println("backfill rebuild: " + projection.said() + "; then it failed: " + failure);
            return ExitCodes.SUCCESS;
        }
        err.println("backfill rebuild: stopped: " + failure + "; " + projection.said()
                + (projection == ShadowTables.Projection.UNCHANGED ? ", run the rebuild again" : ""));
        return ExitCodes.failure(e);
    }

    /**
     * A failure as the run names it: its message and its root cause's; for a rollback that failed (the pool had closed
     * the connection), also the failure that made the transaction roll back, which says what went wrong.
     */
    private static String described(Throwable e) {
        String failure = e.getMessage()
                + (e instanceof NestedRuntimeException nested ? " (" + nested.getMostSpecificCause().getMessage() + ")" : "");
        return e instanceof TransactionSystemException rollback && rollback.getApplicationException() != null
                ? failure + ", after the transaction failed with: " + described(rollback.getApplicationException())
                : failure;
    }

    private int build(PrintWriter out, PrintWriter err, RebuildClaim claim) {
        List<String> eventTopics = topics != null ? topics : properties.topics();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig(),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = EventTopics.partitions(consumer, eventTopics, kafka);
            String truncated = truncated(consumer.beginningOffsets(partitions));
            if (truncated != null && fromSnapshot == null) {
                err.println("backfill rebuild: refused — the history is truncated: " + truncated + " (retention or "
                        + "deleteRecords removed the events before), so a rebuild from the topics alone would drop or lower "
                        + "the cases those events made. Seed it from a snapshot of the case service taken since: "
                        + "--from-snapshot FILE. Nothing was changed.");
                return ExitCodes.COULD_NOT_START;
            }
            ShadowTransactions nested = new ShadowTransactions(transactions, tables);
            AssignmentWriter shadowWriter = AssignmentWriter.intoShadow(jdbc, ShadowTables.SHADOW);
            BatchWriter writer = BatchWriter.once(nested, shadowWriter, new IngestMetrics(meters, "rebuild").write());
            SerdeSettings serde = EventTopics.serdeSettings(kafka, registry);
            ShadowBuild shadow = new ShadowBuild(consumer, EventTopics.reader(serde), writer, batchSize);
            shadow.startAtTheBeginning(partitions);
            EventTopics.requireReadableFraming(consumer, shadow.liveEnd(), serde);
            if (tables.exists(ShadowTables.SHADOW)) {
                err.println("backfill rebuild: dropping the shadow " + ShadowTables.SHADOW + " an earlier run left "
                        + "(it stopped half-done; no other run holds the claim)");
            }
            tables.createShadow(properties.swapLockTimeout());
            try {
                return buildAndSwap(out, err, eventTopics, shadow, shadowWriter, nested, claim);
            } finally {
                dropShadowOfThisRun(err);
            }
        }
    }

    /**
     * Whatever ended the run, its shadow goes with it: swapped in (the name is free then), refused, compared, or
     * stopped by a failure. The drop waits for its lock as long as a swap's attempt does
     * ({@code backfill.rebuild.swap-lock-timeout}): a shadow this cannot drop (a transaction still holds its rows,
     * the database is gone) is dropped by the next run, which holds the claim first.
     */
    private void dropShadowOfThisRun(PrintWriter err) {
        try {
            new TransactionTemplate(transactions).executeWithoutResult(status ->
                    tables.dropShadow(properties.swapLockTimeout()));
        } catch (DataAccessException | TransactionException e) {
            err.println("backfill rebuild: could not drop the shadow " + ShadowTables.SHADOW + " ("
                    + e.getMostSpecificCause().getMessage() + "); the next rebuild drops it, or drop it as the schema owner");
        }
    }

    private int buildAndSwap(PrintWriter out, PrintWriter err, List<String> eventTopics, ShadowBuild shadow,
                             AssignmentWriter shadowWriter, ShadowTransactions nested, RebuildClaim claim) {
        long seeded = fromSnapshot == null ? 0 : ShadowSeed.seed(fromSnapshot, shadowWriter, nested, batchSize);
        Progress bar = progress.start(err, "events");
        shadow.catchUpWithin(swapWithin(), bar);
        // Every live row committed before the horizon came from events below the end read after it (or from no
        // event), so the shadow drained to that end holds what it should of them; rows written since are judged
        // again under the lock.
        String horizon = tables.changeHorizon();
        shadow.drainTo(shadow.liveEnd());
        bar.finish(shadow.totals().read(), shadow.fraction(shadow.lag()));
        tables.carryJurisdictions();
        ProjectionDiff.Differences differences = new ProjectionDiff(jdbc).compare(sample);
        Report report = new Report(eventTopics, shadow.totals(), seeded, differences);
        if (dryRun) {
            return reportDryRun(out, report);
        }
        ShadowTables.Losses before = tables.lossesBefore(horizon);
        if (before.dropped() > 0 && !allowMissingCases) {
            refusal(out, report, new ShadowTables.Losses(before.dropped(), 0));
            return ExitCodes.FINISHED_WITH_REJECTS;
        }
        Duration lockTimeout = swapLockTimeout(err);
        SwapUnderLock.Outcome swap = new SwapUnderLock(tables, nested, swaps, lockTimeout, swapWithin(),
                properties.swapAttempts(), allowMissingCases, allowLower, claim::requireHeld).run(shadow, err, horizon,
                before);
        // What the run read in all, the catch-ups and the tail of the swap included, counted once the swap's outcome
        // is known (an attempt that rolled back was read again).
        Report done = new Report(eventTopics, shadow.totals(), seeded, differences);
        if (swap.refused() != null) {
            refusal(out, done, swap.refused());
            return ExitCodes.FINISHED_WITH_REJECTS;
        }
        report(out, done, swap.timing());
        return ExitCodes.SUCCESS;
    }

    /** What the summary reports of the build: the topics, the totals, the snapshot rows it started from, the diff. */
    private record Report(List<String> topics, ShadowBuild.Totals totals, long seeded,
                          ProjectionDiff.Differences differences) {
    }


    /** The partitions whose log no longer starts at offset 0, with their first offset; null when none. */
    private static String truncated(Map<TopicPartition, Long> starts) {
        List<String> cut = starts.entrySet().stream().filter(e -> e.getValue() > 0)
                .sorted(Map.Entry.comparingByKey(java.util.Comparator.comparing(TopicPartition::toString)))
                .map(e -> e.getKey() + " starts at offset " + e.getValue()).toList();
        return cut.isEmpty() ? null : String.join(", ", cut);
    }

    private int undo(PrintWriter out, PrintWriter err, RebuildClaim claim) {
        if (!tables.exists(ShadowTables.PREVIOUS)) {
            err.println("backfill rebuild --undo: there is no " + ShadowTables.PREVIOUS + " to put back (dropped, or never swapped)");
            return ExitCodes.COULD_NOT_START;
        }
        String notUndoable = tables.whyNotUndoable();
        if (notUndoable != null) {
            err.println("backfill rebuild --undo: refused — " + notUndoable);
            return ExitCodes.COULD_NOT_START;
        }
        Duration timeout = swapLockTimeout(err);
        TransactionTemplate swap = new TransactionTemplate(swaps);
        for (int attempt = 1; ; attempt++) {
            int carried = swap.execute(status -> tables.carryForwardIntoPrevious());
            try {
                long start = System.nanoTime();
                swap.executeWithoutResult(status -> tables.swapBack(timeout, swapWithin()));
                out.printf(Locale.ROOT, "backfill rebuild --undo: the previous projection is back (%d rows carried forward "
                                + "first, %d ms under the lock); the rebuilt one is kept as %s, to be dropped with "
                                + "--drop-previous (it is not put back again: a new rebuild is the redo)%n", carried,
                        Duration.ofNanos(System.nanoTime() - start).toMillis(), ShadowTables.PREVIOUS);
                return ExitCodes.SUCCESS;
            } catch (Deadline.Passed | DataAccessException | TransactionException e) {
                String ended = SwapUnderLock.sessionEnded(e);
                if (ended != null && tables.projectionOrChanged("the database ended the undo's session (" + ended
                        + "); nothing was put back") == ShadowTables.Projection.UNDONE) {
                    out.println("backfill rebuild --undo: the database ended the undo's session (" + ended + ") after "
                            + "its commit reached it; " + ShadowTables.Projection.UNDONE.said() + "; the rebuilt one is "
                            + "kept as " + ShadowTables.PREVIOUS + ", to be dropped with --drop-previous");
                    return ExitCodes.SUCCESS;
                }
                boolean gaveWay = e instanceof Deadline.Passed || SwapUnderLock.sqlState(e, SwapUnderLock.QUERY_CANCELED);
                if (!gaveWay && ended == null && !SwapUnderLock.sqlState(e, SwapUnderLock.LOCK_NOT_AVAILABLE)
                        || attempt >= properties.swapAttempts()) {
                    throw gaveWay ? new IllegalStateException("the undo's pass under the lock did not fit in --swap-within "
                            + swapWithin().toMillis() + " ms in " + attempt + " attempts: raise --swap-within", e)
                            : ended != null ? new IllegalStateException("the database ended the undo's session in its last "
                            + "attempt of " + properties.swapAttempts() + " (" + ended + ")", e)
                            : (RuntimeException) e;
                }
                if (ended != null) {
                    claim.requireHeld();
                }
                err.printf(Locale.ROOT, "backfill rebuild --undo: %s (attempt %d of %d); carrying forward again and "
                                + "trying again%n", ended != null ? "the database ended the undo's session (" + ended
                                + "); the live projection is unchanged" : gaveWay ? "the pass under the lock did not fit in "
                                + swapWithin().toMillis() + " ms; gave way" : "the lock was not granted within "
                                + timeout.toMillis() + " ms",
                        attempt, properties.swapAttempts());
            }
        }
    }

    private int dropPrevious(PrintWriter out, PrintWriter err) {
        if (!tables.exists(ShadowTables.PREVIOUS)) {
            err.println("backfill rebuild --drop-previous: there is no " + ShadowTables.PREVIOUS);
            return ExitCodes.COULD_NOT_START;
        }
        tables.dropPrevious();
        out.println("backfill rebuild --drop-previous: dropped " + ShadowTables.PREVIOUS + "; a swap can no longer be undone");
        return ExitCodes.SUCCESS;
    }

    private int reportDryRun(PrintWriter out, Report report) {
        EntityCopies.Counts copies = new EntityCopies(jdbc).count();
        out.println("backfill rebuild --dry-run: rebuilt from " + String.join(",", report.topics())
                + " to the live end and compared; nothing swapped");
        printTotals(out, report);
        report.differences().print(out, sample);
        SummaryLines.count(out, "rows a swap would lower (needs --allow-lower)", report.differences().counts().get("live_higher"));
        SummaryLines.count(out, "rows a swap would drop (needs --allow-missing-cases)", report.differences().counts().get("only_live"));
        copies.print(out);
        return report.differences().total() + copies.differing() == 0 ? ExitCodes.SUCCESS : ExitCodes.FINISHED_WITH_REJECTS;
    }

    private void refusal(PrintWriter out, Report report, ShadowTables.Losses losses) {
        String topics = String.join(",", report.topics());
        out.println("backfill rebuild: not swapped — the live projection is unchanged:");
        if (losses.dropped() > 0 && !allowMissingCases) {
            out.println("  " + losses.dropped() + " cases of the live table are in no event of " + topics
                    + " (retention, or loaded from a snapshot); with --allow-missing-cases they would be gone after the swap");
        }
        if (losses.lowered() > 0 && !allowLower) {
            out.println("  " + losses.lowered() + " rows of the live table are at a higher revision than the events of "
                    + topics + " say; the swap would lower them, which only --allow-lower permits (check the sample first)");
        }
        printTotals(out, report);
        report.differences().print(out, sample);
    }

    private void report(PrintWriter out, Report report, SwapTiming timing) {
        out.println("backfill rebuild: swapped in — rebuilt from " + String.join(",", report.topics())
                + "; the replaced projection is kept as " + ShadowTables.PREVIOUS + " (--undo, --drop-previous)");
        printTotals(out, report);
        out.println("  differences from the live table before the swap:");
        report.differences().print(out, sample);
        SummaryLines.count(out, "events read under the lock", timing.tail());
        SummaryLines.count(out, "lock attempts", timing.attempts());
        SummaryLines.count(out, "lock wait (ms)", timing.waited().toMillis());
        SummaryLines.count(out, "lock held (ms)", timing.held().toMillis());
        SummaryLines.count(out, "longest pause, at most (ms)", timing.longestPause().toMillis());
        out.println("  placement and kinship copies follow the new rows from their next event; "
                + "run `backfill repair` to bring them along now");
    }

    private static void printTotals(PrintWriter out, Report report) {
        if (report.seeded() > 0) {
            SummaryLines.count(out, "snapshot rows seeded", report.seeded());
        }
        SummaryLines.count(out, "events read", report.totals().read());
        SummaryLines.count(out, "cases rebuilt", report.totals().cases());
        SummaryLines.count(out, "passed over (dead-lettered)", report.totals().passedOver());
        SummaryLines.count(out, "  of which an unknown schema id or record type", report.totals().unknownSchema());
    }

    /** Before the claim: a value that means nothing, or the deprecated option beside its replacement, is bad usage. */
    private void checkOptions() {
        OptionChecks.atLeast(spec, "--batch-size", batchSize, 1);
        OptionChecks.atLeast(spec, "--sample", sample, 0);
        OptionChecks.positive(spec, "--swap-within", swapWithin);
        OptionChecks.positive(spec, "--swap-lock-timeout", swapLockTimeout);
        OptionChecks.notBoth(spec, "--swap-lock-timeout-ms", swapLockTimeoutMs != null, "--swap-lock-timeout",
                swapLockTimeout != null, "give --swap-lock-timeout alone (--swap-lock-timeout-ms is deprecated)");
        // --undo and --drop-previous do their work whatever else is given: a --dry-run beside them would be ignored.
        OptionChecks.notBoth(spec, "--dry-run", dryRun, "--undo", undo, "--undo has no dry run; give it alone");
        OptionChecks.notBoth(spec, "--dry-run", dryRun, "--drop-previous", dropPrevious,
                "--drop-previous has no dry run; give it alone");
        OptionChecks.notBoth(spec, "--undo", undo, "--drop-previous", dropPrevious, "give one of them");
        if (swapLockTimeoutMs != null) {
            OptionChecks.atLeast(spec, "--swap-lock-timeout-ms", swapLockTimeoutMs, 1);
        }
    }

    private Duration swapLockTimeout(PrintWriter err) {
        if (swapLockTimeoutMs != null) {
            err.println("backfill rebuild: --swap-lock-timeout-ms is deprecated and goes in the next release; use "
                    + "--swap-lock-timeout " + swapLockTimeoutMs + "ms");
            return Duration.ofMillis(swapLockTimeoutMs);
        }
        return swapLockTimeout != null ? swapLockTimeout : properties.swapLockTimeout();
    }

    private Duration swapWithin() {
        return swapWithin != null ? swapWithin : properties.swapWithin();
    }


    /** No group: nothing is committed, a stopped rebuild starts over. */
    private Map<String, Object> consumerConfig() {
        Map<String, Object> config = EventTopics.consumerConfig(kafka, Math.min(batchSize, 5000));
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return config;
    }
}
