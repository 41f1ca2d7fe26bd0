package org.caseassignments.backfill.rebuild;

import java.io.PrintWriter;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.caseassignments.backfill.EventTopics;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.SummaryLines;
import org.caseassignments.backfill.progress.Progress;
import org.caseassignments.backfill.progress.ProgressOptions;
import org.caseassignments.backfill.repair.EntityCopies;
import org.caseassignments.ingest.BatchWriter;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.store.AssignmentWriter;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
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
                "until --drop-previous, so --undo can put it back. Unlike replay, a rebuild can lower a revision: it corrects",
                "rows no event explains (an inflated snapshot, a restored database, an earlier bug).", ""},
        footer = {"", "Exit codes: 0 swapped (dry run: no difference), undone or dropped; 1 dry run found differences, or",
                "the swap was refused because cases are only in the live table; 2 bad usage or stopped by a failure."})
public class RebuildCommand implements Callable<Integer> {

    private static final String LOCK_NOT_AVAILABLE = "55P03";

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

    @Option(names = "--undo", description = "Put the previous projection back (carrying forward what moved since "
            + "the swap, under the guard); the rebuilt one becomes the previous, so --undo again redoes.")
    boolean undo;

    @Option(names = "--drop-previous", description = "Drop the projection an earlier swap replaced; no undo after this.")
    boolean dropPrevious;

    @Option(names = "--batch-size", paramLabel = "EVENTS", defaultValue = "20000",
            description = "Most events per transaction into the shadow (default: ${DEFAULT-VALUE}).")
    int batchSize;

    @Option(names = "--swap-within", paramLabel = "EVENTS",
            description = "Swap once at most this many events behind the live end (default: backfill.rebuild.swap-within, 5000).")
    Long swapWithin;

    @Option(names = "--swap-lock-timeout-ms", paramLabel = "MS",
            description = "Longest one attempt waits for the lock (default: backfill.rebuild.swap-lock-timeout, 500 ms).")
    Long swapLockTimeoutMs;

    @Mixin
    ProgressOptions progress;

    @Spec
    CommandSpec spec;

    private final MeterRegistry meters;
    private final KafkaProperties kafka;
    private final RebuildProperties properties;
    private final JdbcTemplate jdbc;
    private final PlatformTransactionManager transactions;
    private final ShadowTables tables;

    RebuildCommand(KafkaProperties kafka, RebuildProperties properties, JdbcTemplate jdbc,
                   PlatformTransactionManager transactions, MeterRegistry meters) {
        this.meters = meters;
        this.kafka = kafka;
        this.properties = properties;
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.tables = new ShadowTables(jdbc);
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            if (undo || dropPrevious) {
                return undo ? undo(out, err) : dropPrevious(out, err);
            }
            if (!dryRun && tables.exists(ShadowTables.PREVIOUS)) {
                err.println("backfill rebuild: an earlier swap's projection is still kept as " + ShadowTables.PREVIOUS
                        + ": put it back with --undo or drop it with --drop-previous first");
                return ExitCodes.COULD_NOT_START;
            }
            return build(out, err);
        } catch (KafkaException | DataAccessException | IllegalStateException e) {
            err.println("backfill rebuild: stopped: " + e.getMessage()
                    + (e instanceof DataAccessException dae ? " (" + dae.getMostSpecificCause().getMessage() + ")" : "")
                    + "; the live projection is unchanged, run the rebuild again");
            return ExitCodes.COULD_NOT_START;
        } finally {
            out.flush();
            err.flush();
        }
    }

    private int build(PrintWriter out, PrintWriter err) {
        List<String> eventTopics = topics != null ? topics : properties.topics();
        tables.createShadow();
        TransactionTemplate nested = new TransactionTemplate(transactions);
        // Nested: a transaction of its own while the shadow is built, a savepoint inside the swap's transaction.
        nested.setPropagationBehavior(TransactionDefinition.PROPAGATION_NESTED);
        BatchWriter writer = BatchWriter.once(nested, AssignmentWriter.intoShadow(jdbc, ShadowTables.SHADOW),
                new IngestMetrics(meters, "rebuild"));
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig(),
                new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            ShadowBuild shadow = new ShadowBuild(consumer, EventTopics.reader(kafka), writer, batchSize);
            shadow.startAtTheBeginning(EventTopics.partitions(consumer, eventTopics, kafka));
            Progress bar = progress.start(err, "events");
            shadow.catchUpWithin(swapWithin(), bar);
            // The diff compares with the live table as of one live end, so the shadow reaches it first.
            shadow.drainTo(shadow.liveEnd());
            bar.finish(shadow.totals().read(), shadow.fraction(shadow.lag()));
            tables.carryJurisdictions();
            ProjectionDiff.Differences differences = new ProjectionDiff(jdbc).compare(sample);
            if (dryRun) {
                return reportDryRun(out, eventTopics, shadow.totals(), differences);
            }
            long missing = differences.counts().get("only_live");
            if (missing > 0 && !allowMissingCases) {
                tables.dropShadow();
                out.println("backfill rebuild: not swapped — " + missing + " cases of the live table are in no event of "
                        + String.join(",", eventTopics) + " (retention, or loaded from a snapshot); with "
                        + "--allow-missing-cases they would be gone after the swap");
                differences.print(out, sample);
                return ExitCodes.FINISHED_WITH_REJECTS;
            }
            SwapTiming timing = swap(shadow, err);
            report(out, eventTopics, shadow.totals(), differences, timing);
            return ExitCodes.SUCCESS;
        }
    }

    /**
     * Catches up, then in one transaction: the lock (bounded wait), the tail up to the live end as it is under the
     * lock, the renames. Nothing the projector committed can be missing: it commits only events it has read, which
     * are below the end read under the lock, and it cannot commit while the lock is held. What it commits afterwards
     * goes to the new table, through its guard.
     */
    private SwapTiming swap(ShadowBuild shadow, PrintWriter err) {
        Duration timeout = swapLockTimeoutMs != null ? Duration.ofMillis(swapLockTimeoutMs) : properties.swapLockTimeout();
        TransactionTemplate swap = new TransactionTemplate(transactions);
        for (int attempt = 1; ; attempt++) {
            shadow.catchUpWithin(swapWithin(), new Progress(err, Progress.Mode.NONE, Duration.ZERO, "events"));
            ShadowBuild.Mark mark = shadow.mark();
            long readBefore = shadow.totals().read();
            long[] granted = new long[2];
            try {
                swap.executeWithoutResult(status -> {
                    granted[0] = System.nanoTime();
                    String carryFrom = tables.lockLive(timeout);
                    granted[1] = System.nanoTime();
                    shadow.drainTo(shadow.liveEnd());
                    tables.swap(carryFrom);
                });
                long committed = System.nanoTime();
                return new SwapTiming(attempt, timeout, Duration.ofNanos(granted[1] - granted[0]),
                        Duration.ofNanos(committed - granted[1]), shadow.totals().read() - readBefore);
            } catch (DataAccessException e) {
                shadow.rewindTo(mark);
                if (!lockNotAvailable(e) || attempt >= properties.swapAttempts()) {
                    throw e;
                }
                err.printf(Locale.ROOT, "backfill rebuild: the projection's lock was not granted within %d ms "
                        + "(attempt %d of %d; held by: %s); catching up and trying again%n", timeout.toMillis(), attempt,
                        properties.swapAttempts(), tables.lockHolders());
            }
        }
    }

    private int undo(PrintWriter out, PrintWriter err) {
        if (!tables.exists(ShadowTables.PREVIOUS)) {
            err.println("backfill rebuild --undo: there is no " + ShadowTables.PREVIOUS + " to put back (dropped, or never swapped)");
            return ExitCodes.COULD_NOT_START;
        }
        Duration timeout = swapLockTimeoutMs != null ? Duration.ofMillis(swapLockTimeoutMs) : properties.swapLockTimeout();
        int carried = tables.carryForwardIntoPrevious();
        TransactionTemplate swap = new TransactionTemplate(transactions);
        for (int attempt = 1; ; attempt++) {
            try {
                long start = System.nanoTime();
                swap.executeWithoutResult(status -> tables.swapBack(timeout));
                out.printf(Locale.ROOT, "backfill rebuild --undo: the previous projection is back (%d rows carried forward "
                                + "first, %d ms under the lock); the rebuilt one is kept as %s%n", carried,
                        Duration.ofNanos(System.nanoTime() - start).toMillis(), ShadowTables.PREVIOUS);
                return ExitCodes.SUCCESS;
            } catch (DataAccessException e) {
                if (!lockNotAvailable(e) || attempt >= properties.swapAttempts()) {
                    throw e;
                }
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

    private int reportDryRun(PrintWriter out, List<String> eventTopics, ShadowBuild.Totals totals,
                             ProjectionDiff.Differences differences) {
        EntityCopies.Counts copies = new EntityCopies(jdbc).count();
        tables.dropShadow();
        out.println("backfill rebuild --dry-run: rebuilt from " + String.join(",", eventTopics)
                + " to the live end and compared; nothing swapped");
        printTotals(out, totals);
        differences.print(out, sample);
        copies.print(out);
        return differences.total() + copies.differing() == 0 ? ExitCodes.SUCCESS : ExitCodes.FINISHED_WITH_REJECTS;
    }

    private void report(PrintWriter out, List<String> eventTopics, ShadowBuild.Totals totals,
                        ProjectionDiff.Differences differences, SwapTiming timing) {
        out.println("backfill rebuild: swapped in — rebuilt from " + String.join(",", eventTopics)
                + "; the replaced projection is kept as " + ShadowTables.PREVIOUS + " (--undo, --drop-previous)");
        printTotals(out, totals);
        out.println("  differences from the live table before the swap:");
        differences.print(out, sample);
        SummaryLines.count(out, "events read under the lock", timing.tail());
        SummaryLines.count(out, "lock attempts", timing.attempts());
        SummaryLines.count(out, "lock wait (ms)", timing.waited().toMillis());
        SummaryLines.count(out, "lock held (ms)", timing.held().toMillis());
        SummaryLines.count(out, "longest pause, at most (ms)", timing.longestPause().toMillis());
        out.println("  placement and kinship copies follow the new rows from their next event; "
                + "run `backfill repair` to bring them along now");
    }

    private static void printTotals(PrintWriter out, ShadowBuild.Totals totals) {
        SummaryLines.count(out, "events read", totals.read());
        SummaryLines.count(out, "cases rebuilt", totals.cases());
        SummaryLines.count(out, "passed over (dead-lettered)", totals.passedOver());
    }

    private long swapWithin() {
        return swapWithin != null ? swapWithin : properties.swapWithin();
    }

    private static boolean lockNotAvailable(DataAccessException e) {
        return e.getMostSpecificCause() instanceof SQLException sql && LOCK_NOT_AVAILABLE.equals(sql.getSQLState());
    }

    /** No group: nothing is committed, a stopped rebuild starts over. */
    private Map<String, Object> consumerConfig() {
        Map<String, Object> config = EventTopics.consumerConfig(kafka, Math.min(batchSize, 5000));
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        return config;
    }
}
