package org.caseassignments.backfill.rebuild;

import java.time.Duration;

import org.springframework.boot.convert.DurationStyle;
import picocli.CommandLine;

/** A duration on the command line as in the settings: {@code 1s}, {@code 500ms}, {@code PT1S}; a bare number is milliseconds. */
final class DurationOption implements CommandLine.ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        return DurationStyle.detectAndParse(value.trim());
    }
}
