package org.caseassignments.backfill.progress;

import java.io.PrintWriter;
import java.time.Duration;

import picocli.CommandLine.Option;

/** The progress options every long-running subcommand shares (a picocli mixin). */
public final class ProgressOptions {

    @Option(names = "--progress", paramLabel = "MODE", defaultValue = "auto",
            description = "auto (a bar on a terminal, lines otherwise), bar, lines or none (default: ${DEFAULT-VALUE}).")
    Progress.Mode mode;

    @Option(names = "--progress-interval", paramLabel = "SECONDS", defaultValue = "10",
            description = "Seconds between progress lines (default: ${DEFAULT-VALUE}).")
    long intervalSeconds;

    /** A progress report on {@code out}, counting in {@code unit}. */
    public Progress start(PrintWriter out, String unit) {
        return new Progress(out, mode, Duration.ofSeconds(intervalSeconds), unit);
    }
}
