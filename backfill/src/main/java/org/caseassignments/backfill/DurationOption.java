package org.caseassignments.backfill;

import java.time.Duration;

import org.springframework.boot.convert.DurationStyle;
import picocli.CommandLine;

/**
 * Every duration on the command line, read as the settings read theirs: {@code 500ms}, {@code 10s}, {@code 3650d}, or
 * ISO-8601 {@code PT10S}, {@code P3650D}; a bare number is milliseconds. Registered for every {@code Duration} option.
 */
final class DurationOption implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        return DurationStyle.detectAndParse(value.trim());
    }
}
