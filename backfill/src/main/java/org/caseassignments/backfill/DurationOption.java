package org.caseassignments.backfill;

import java.time.Duration;

import org.springframework.boot.convert.DurationStyle;
import picocli.CommandLine;

/**
 * Every duration on the command line, read as the settings read theirs: {@code 500ms}, {@code 10s}, {@code 3650d}, or
 * ISO-8601 {@code PT10S}, {@code P3650D}. A bare number is refused (bad usage): the settings would read it as
 * milliseconds, and {@code --older-than 3650} meant as days would purge all but 3.65 seconds of history. Registered
 * for every {@code Duration} option; an option whose name says its unit ({@code --swap-lock-timeout-ms}) is no
 * {@code Duration} and reads a number.
 */
final class DurationOption implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        String duration = value.trim();
        if (!duration.isEmpty() && duration.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("'" + duration + "' has no unit: write it with one (" + duration + "d, "
                    + duration + "s, " + duration + "ms) or in ISO-8601 (P" + duration + "D, PT" + duration + "S)");
        }
        return DurationStyle.detectAndParse(duration);
    }
}
