package org.caseassignments.backfill.verify;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.OptionChecks;
import org.caseassignments.backfill.SummaryLines;
import org.caseassignments.backfill.progress.Progress;
import org.caseassignments.backfill.progress.ProgressOptions;
import org.caseassignments.backfill.repair.EntityCopies;
import org.caseassignments.backfill.snapshot.BadRow;
import org.caseassignments.backfill.snapshot.RejectsFile;
import org.caseassignments.backfill.snapshot.SnapshotOptions;
import org.caseassignments.backfill.snapshot.SnapshotRecord;
import org.caseassignments.backfill.snapshot.SnapshotRow;
import org.caseassignments.backfill.snapshot.SnapshotSource;
import org.caseassignments.backfill.snapshot.SnapshotSourceException;
import org.caseassignments.store.AssignmentUpdate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code backfill verify}: does the projection agree with the case service's snapshot? */
@Component
@Command(name = "verify", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 110,
        description = {
                "Compare the projection with a snapshot of the case service and report the differences.",
                "Compare the projection with a snapshot of the case service and report the cases missing, behind, ahead,",
                "or diverging at an equal revision, with a sample of each. Reads only; the snapshot's sources are those",
                "of the assignments command. While the projector runs, cases changing right now may show as behind or ahead.", ""},
        footer = {"", "Exit codes: 0 the projection agrees with every snapshot row; 1 differences found or rows rejected;",
                "2 the snapshot could not be read."})
class VerifyCommand implements Callable<Integer> {

    @ArgGroup(exclusive = true, multiplicity = "1")
    SnapshotOptions source;

    @Option(names = "--batch-size", paramLabel = "ROWS", defaultValue = "20000",
            description = "Snapshot rows compared per query (default: ${DEFAULT-VALUE}).")
    int batchSize;

    @Option(names = "--sample", paramLabel = "N", defaultValue = "10",
            description = "Cases listed per kind of difference (default: ${DEFAULT-VALUE}).")
    int sample;

    @Option(names = "--rejects", paramLabel = "FILE", defaultValue = "verify-rejects.csv",
            description = "CSV of snapshot rows that could not be read: line,reason,message,record (default: ${DEFAULT-VALUE}).")
    Path rejects;

    @Mixin
    ProgressOptions progress;

    @Spec
    CommandSpec spec;

    private final JdbcTemplate jdbc;

    VerifyCommand(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Integer call() {
        OptionChecks.atLeast(spec, "--batch-size", batchSize, 1);
        OptionChecks.atLeast(spec, "--sample", sample, 0);
        source.check(spec);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Comparison comparison = new Comparison(jdbc, sample);
        long read = 0;
        try (SnapshotSource snapshot = source.open(); RejectsFile bad = RejectsFile.fresh(rejects)) {
            Progress bar = progress.start(err, "rows");
            List<AssignmentUpdate> batch = new ArrayList<>(batchSize);
            for (SnapshotRecord record = snapshot.next(); record != null; record = snapshot.next()) {
                read++;
                if (record instanceof SnapshotRow row) {
                    batch.add(row.toUpdate());
                } else {
                    bad.write((BadRow) record);
                }
                if (batch.size() == batchSize) {
                    comparison.compare(batch);
                    batch.clear();
                    bar.update(read, snapshot.fractionDone(), "");
                }
            }
            if (!batch.isEmpty()) {
                comparison.compare(batch);
            }
            bar.finish(read, snapshot.fractionDone());
            EntityCopies.Counts copies = new EntityCopies(jdbc).count();
            report(out, snapshot.identity().description(), read, comparison, bad, copies);
            return comparison.differences() == 0 && bad.count() == 0 && copies.differing() == 0
                    ? ExitCodes.SUCCESS : ExitCodes.FINISHED_WITH_REJECTS;
        } catch (SnapshotSourceException e) {
            err.println("backfill verify: " + e.getMessage());
            err.flush();
            return ExitCodes.failure(e);
        }
    }

    private static void report(PrintWriter out, String source, long read, Comparison comparison, RejectsFile bad,
                               EntityCopies.Counts copies) {
        out.println("backfill verify: " + (comparison.differences() == 0 && bad.count() == 0
                ? "the projection agrees with the snapshot" : "differences found") + " — " + source);
        SummaryLines.count(out, "read", read);
        SummaryLines.count(out, "agree", comparison.agreeing());
        comparison.counts().forEach((kind, count) -> SummaryLines.count(out, kind.label, count));
        SummaryLines.count(out, "rejected", bad.count());
        if (bad.count() > 0) {
            out.println("  rejected rows are listed in " + bad.path());
        }
        for (Comparison.Sample s : comparison.samples()) {
            out.printf(Locale.ROOT, "  %-28s %s  snapshot %s  projection %s%n", s.kind().label, s.caseId(), s.snapshot(),
                    s.projection() == null ? "none" : s.projection());
        }
        copies.print(out);
        out.flush();
    }

}
