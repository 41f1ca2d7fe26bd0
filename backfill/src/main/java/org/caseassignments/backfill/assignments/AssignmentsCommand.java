package org.caseassignments.backfill.assignments;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import io.micrometer.core.instrument.MeterRegistry;

import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.OptionChecks;
import org.caseassignments.backfill.progress.Progress;
import org.caseassignments.backfill.progress.ProgressOptions;
import org.caseassignments.backfill.snapshot.ReadAheadSource;
import org.caseassignments.backfill.snapshot.RejectsFile;
import org.caseassignments.backfill.snapshot.SnapshotOptions;
import org.caseassignments.backfill.snapshot.SnapshotSource;
import org.caseassignments.backfill.snapshot.SnapshotSourceException;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.store.BatchWriter;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code backfill assignments}: seed or repair the projection from a snapshot of the case service. */
@Component
@Command(name = "assignments", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 110,
        description = {
                "Seed or repair the projection from a snapshot of the case service (CSV, JSON Lines or a JDBC query).",
                "Load (case_id, assigned_worker_sub, supervisor_sub, assignment_revision) rows from a snapshot of the case",
                "service into the projection, one transaction per batch, through the never-rewind guard: a lower revision",
                "changes nothing, an equal one converges to the snapshot's values, a placeholder is replaced, an absent",
                "case is inserted; the case's placement and kinship rows follow. Safe while the projector runs.", ""},
        footer = {"", "Exit codes: 0 every row applied; 1 finished with rejected rows (see --rejects); 2 could not start,",
                "or stopped by a failure or --max-errors; 3 stopped by --max-batches (run again to continue)."})
class AssignmentsCommand implements Callable<Integer> {

    static final String DEFAULT_REJECTS = "backfill-rejects.csv";

    @ArgGroup(exclusive = true, multiplicity = "1")
    SnapshotOptions source;

    @Option(names = "--batch-size", paramLabel = "ROWS", defaultValue = "20000",
            description = "Rows per batch, one transaction each (default: ${DEFAULT-VALUE}).")
    int batchSize;

    /** Spring Boot's connection pool holds 10 connections; the reader and the status checks need none of them. */
    static final int MAX_PARALLELISM = 8;

    @Option(names = "--parallelism", paramLabel = "N", defaultValue = "2",
            description = "Batches written at once, each in its own transaction on its own connection, while the next is "
                    + "read; a batch that shares a case with one being written waits for it (default: ${DEFAULT-VALUE}).")
    int parallelism;

    @Option(names = "--dry-run", description = "Run each batch and roll it back: reports what would change, writes nothing.")
    boolean dryRun;

    @Option(names = "--checkpoint", paramLabel = "FILE",
            description = "Write progress here after each committed batch; if FILE holds an unfinished run over the same "
                    + "snapshot, continue it.")
    Path checkpoint;

    @Option(names = "--resume-from", paramLabel = "FILE",
            description = "Continue the run recorded in this checkpoint (it must exist); it is also updated, unless "
                    + "--checkpoint names another file.")
    Path resumeFrom;

    @Option(names = "--max-errors", paramLabel = "N",
            description = "Stop once more than N rows were rejected, 0 at the first (default: no limit).")
    Long maxErrors;

    @Option(names = "--max-batches", paramLabel = "N",
            description = "Stop after N batches, at least 1, e.g. to work within a maintenance window (default: no limit); exit 3.")
    Long maxBatches;

    @Option(names = "--rejects", paramLabel = "FILE",
            description = "CSV of bad rows: line,reason,message,record (default: the checkpoint's, else " + DEFAULT_REJECTS + ").")
    Path rejects;

    @Mixin
    ProgressOptions progress;

    @Spec
    CommandSpec spec;

    private final BatchWriter writer;

    AssignmentsCommand(AssignmentWriter writer, PlatformTransactionManager transactions, MeterRegistry meters) {
        this.writer = BatchWriter.once(new TransactionTemplate(transactions), writer,
                new IngestMetrics(meters, "snapshot").write());
    }

    @Override
    public Integer call() {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path checkpointFile = checkpoint != null ? checkpoint : resumeFrom;
        try (SnapshotSource snapshot = source.open()) {
            Checkpoint from = resumePoint(snapshot, out);
            Path rejectsFile = rejects != null ? rejects
                    : Path.of(from != null ? from.rejectsFile() : DEFAULT_REJECTS);
            try (RejectsFile bad = from == null ? RejectsFile.fresh(rejectsFile) : RejectsFile.resumed(rejectsFile, from.rejectsBytes())) {
                if (from != null) {
                    snapshot.skip(from.recordsDone());
                }
                Progress bar = progress.start(err, "rows");
                SnapshotLoad.Result result;
                try (ReadAheadSource reading = new ReadAheadSource(snapshot, batchSize)) {
                    result = new SnapshotLoad(writer,
                            new SnapshotLoad.Settings(batchSize, parallelism, dryRun,
                                    maxErrors == null ? -1 : maxErrors, maxBatches == null ? 0 : maxBatches, checkpointFile))
                            .run(reading, bad, from, bar);
                }
                new LoadSummary(out, err).print(snapshot.identity().description(), result, bad, dryRun, checkpointFile,
                        bar.elapsedSeconds());
                return exitCode(result);
            }
        } catch (SnapshotSourceException | IllegalArgumentException e) {
            err.println("backfill assignments: " + e.getMessage());
            err.flush();
            return ExitCodes.failure(e);
        }
    }

    private void validate() {
        OptionChecks.atLeast(spec, "--batch-size", batchSize, 1);
        if (maxErrors != null) {
            OptionChecks.atLeast(spec, "--max-errors", maxErrors, 0);
        }
        if (maxBatches != null) {
            OptionChecks.atLeast(spec, "--max-batches", maxBatches, 1);
        }
        source.check(spec);
        if (parallelism < 1 || parallelism > MAX_PARALLELISM) {
            throw new ParameterException(spec.commandLine(),
                    "--parallelism must be between 1 and " + MAX_PARALLELISM + " (the connection pool's size), was " + parallelism);
        }
        if (dryRun && (checkpoint != null || resumeFrom != null)) {
            throw new ParameterException(spec.commandLine(),
                    "--dry-run writes nothing, so it neither writes nor resumes a checkpoint; drop --checkpoint/--resume-from");
        }
    }

    /** The checkpoint to continue from, or null to start at the first row. */
    private Checkpoint resumePoint(SnapshotSource snapshot, PrintWriter out) {
        Checkpoint from;
        if (resumeFrom != null) {
            from = Checkpoint.read(resumeFrom);
        } else if (checkpoint != null && Files.exists(checkpoint)) {
            from = Checkpoint.read(checkpoint);
            if (from.complete()) {
                out.println("checkpoint " + checkpoint + " records a finished run; starting again from the first row");
                return null;
            }
        } else {
            return null;
        }
        String mismatch = from.mismatch(snapshot.identity());
        if (mismatch != null) {
            throw new IllegalArgumentException("cannot resume from checkpoint " + (resumeFrom != null ? resumeFrom : checkpoint)
                    + ": " + mismatch + ". Delete it to start from the first row (re-applying rows is harmless: "
                    + "the guard never moves an assignment backwards).");
        }
        out.println("resuming after line " + from.lastLine() + " (" + from.recordsDone() + " records done)");
        return from;
    }

    private static int exitCode(SnapshotLoad.Result result) {
        return switch (result.stop()) {
            case END -> result.tally().rejected > 0 ? ExitCodes.FINISHED_WITH_REJECTS : ExitCodes.SUCCESS;
            case MAX_BATCHES -> ExitCodes.STOPPED_BEFORE_THE_END;
            case MAX_ERRORS, SOURCE_FAILED, DATABASE_FAILED -> ExitCodes.COULD_NOT_START;
        };
    }
}
