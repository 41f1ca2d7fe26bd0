package org.caseassignments.backfill.progress;

import java.io.PrintWriter;
import java.time.Duration;

import org.caseassignments.backfill.OptionChecks;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The progress options every long-running subcommand shares (a picocli mixin). */
public final class ProgressOptions {

    @Option(names = "--progress", paramLabel = "MODE", defaultValue = "auto",
            description = "auto (a bar on a terminal, lines otherwise), bar, lines or none (default: ${DEFAULT-VALUE}).")
    Progress.Mode mode;

    /** The subcommand this mixin is part of, for a refusal to name it. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    Duration interval;

    /** Checked as it is parsed, before the subcommand runs: a line every no time means nothing. */
    @Option(names = "--progress-interval", paramLabel = "DURATION", defaultValue = "10s",
            description = "Time between progress lines, e.g. 30s, 500ms or PT30S; a bare number is refused "
                    + "(default: ${DEFAULT-VALUE}).")
    void interval(Duration interval) {
        OptionChecks.positive(mixee, "--progress-interval", interval);
        this.interval = interval;
    }

    /** A progress report on {@code out}, counting in {@code unit}. */
    public Progress start(PrintWriter out, String unit) {
        return new Progress(out, mode, interval, unit);
    }
}
