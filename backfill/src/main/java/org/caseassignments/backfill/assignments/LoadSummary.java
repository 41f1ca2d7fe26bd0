package org.caseassignments.backfill.assignments;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;

import org.caseassignments.backfill.SummaryLines;
import org.caseassignments.backfill.snapshot.RejectsFile;

/** The final report of an {@code assignments} run. */
final class LoadSummary {

    private final PrintWriter out;
    private final PrintWriter err;

    LoadSummary(PrintWriter out, PrintWriter err) {
        this.out = out;
        this.err = err;
    }

    void print(String source, SnapshotLoad.Result result, RejectsFile rejects, boolean dryRun, Path checkpoint,
               double seconds) {
        LoadCounts t = result.tally();
        out.println((dryRun ? "dry run (nothing was written; a run now would do this): " : "backfill assignments: ")
                + headline(result) + " — " + source);
        SummaryLines.count(out, "read", t.read);
        SummaryLines.count(out, "inserted", t.inserted);
        SummaryLines.count(out, "advanced", t.advanced);
        SummaryLines.count(out, "converged at equal revision", t.converged);
        SummaryLines.count(out, "unchanged", t.unchanged);
        SummaryLines.count(out, "skipped as older", t.skippedOlder);
        SummaryLines.count(out, "superseded within a batch", t.superseded);
        SummaryLines.count(out, "rejected", t.rejected);
        SummaryLines.count(out, "placement/kinship rows updated", t.entityRowsUpdated);
        if (t.rejected > 0) {
            out.println("  rejected rows are listed in " + rejects.path());
        }
        out.printf(Locale.ROOT, "  this run: %.1f s, %,.0f rows/s%n", seconds, result.readThisRun() / Math.max(seconds, 1e-9));
        out.flush();
        if (result.failure() != null) {
            err.println("backfill assignments: stopped after line " + result.lastLine() + ": " + result.failure());
        }
        if (result.stop() != SnapshotLoad.Stop.END && checkpoint != null) {
            err.println("backfill assignments: run again with --checkpoint " + checkpoint + " to continue after the last "
                    + "committed batch");
        }
        err.flush();
    }

    private static String headline(SnapshotLoad.Result result) {
        return switch (result.stop()) {
            case END -> "finished";
            case MAX_BATCHES -> "stopped after --max-batches at line " + result.lastLine();
            case MAX_ERRORS -> "stopped: too many rejected rows";
            case SOURCE_FAILED -> "stopped: the snapshot source failed";
            case DATABASE_FAILED -> "stopped: the database failed";
        };
    }

}
