package org.caseassignments.backfill;

import java.io.PrintWriter;
import java.util.Locale;

/** The one layout of a summary's counted lines, so every subcommand's summary reads and parses alike. */
public final class SummaryLines {

    private SummaryLines() {
    }

    /** {@code "  label                 1,234"}. */
    public static void count(PrintWriter out, String label, long value) {
        out.printf(Locale.ROOT, "  %-32s %,12d%n", label, value);
    }
}
