package org.caseassignments.backfill;

import java.time.Duration;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The checks of an option's value that picocli's parsing cannot make. Each refusal is a {@link ParameterException},
 * so it is bad usage ({@link ExitCodes#USAGE}) with the command's usage, as picocli's own parse errors are, and it
 * names the option and the value. A subcommand makes them before it opens anything.
 */
public final class OptionChecks {

    private OptionChecks() {
    }

    /** {@code value} is at least {@code least}: a count of nothing, or a negative one, means nothing. */
    public static void atLeast(CommandSpec spec, String option, long value, long least) {
        if (value < least) {
            throw new ParameterException(spec.commandLine(), option + " must be at least " + least + ", was " + value);
        }
    }

    /** {@code value}, when given, is longer than no time. */
    public static void positive(CommandSpec spec, String option, Duration value) {
        if (value != null && (value.isNegative() || value.isZero())) {
            throw new ParameterException(spec.commandLine(), option + " must be more than 0, was " + value);
        }
    }

    /** An option and the one it replaces, or two that say opposite things, are not given together. */
    public static void notBoth(CommandSpec spec, String option, boolean given, String other, boolean otherGiven,
                               String choose) {
        if (given && otherGiven) {
            throw new ParameterException(spec.commandLine(), option + " and " + other + " do not go together: " + choose);
        }
    }
}
