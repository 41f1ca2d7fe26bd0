package org.caseassignments.store;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.convert.DurationStyle;

/**
 * A setting in the one duration syntax ({@code 30s}, {@code 500ms}, {@code PT30S}) that replaced a number whose
 * variable said its unit ({@code …_MS}, {@code …_SECONDS}). The former variable still works alone, with a warning that
 * it is deprecated; set together, the two must say the same duration, or the deployable refuses to start naming both,
 * rather than one silently winning. A bare number in the new variable is refused: Spring would read it as
 * milliseconds, where its predecessor said its unit in its name. A negative duration is refused by either name.
 *
 * @param variable           the environment variable, as the messages name it
 * @param value              what it is set to; null or blank is unset (an application.yml hands an unset variable over
 *                           as empty)
 * @param deprecatedVariable the variable it replaced
 * @param deprecatedValue    what that one is set to, a number of {@code unit}; null is unset
 * @param unit               the unit the deprecated variable's name says
 */
public record RenamedDuration(String variable, String value, String deprecatedVariable, Long deprecatedValue,
                              ChronoUnit unit) {

    public RenamedDuration {
        Duration given = parse(variable, value);
        Duration former = deprecated(deprecatedVariable, deprecatedValue, unit);
        if (given != null && former != null && !given.equals(former)) {
            throw new IllegalArgumentException(variable + " (" + value.strip() + ") and the deprecated "
                    + deprecatedVariable + " (" + deprecatedValue + ") are both set, to different durations: set "
                    + variable + " alone, e.g. " + written(former));
        }
        Duration effective = given != null ? given : former;
        if (effective != null && effective.isNegative()) {
            throw new IllegalArgumentException(variable + " must not be negative, was "
                    + (given != null ? value.strip() : deprecatedValue + " (" + deprecatedVariable + ")"));
        }
    }

    /** The duration set by either variable; null when neither is. */
    public Duration duration() {
        Duration given = parse(variable, value);
        return given != null ? given : deprecated(deprecatedVariable, deprecatedValue, unit);
    }

    /**
     * What an operator should change, though the deployable starts: the deprecated name, alone or beside the new one;
     * and a duration of no time, when {@code atZero} says what it does (null: nothing to say).
     */
    public List<String> warnings(String atZero) {
        List<String> warnings = new ArrayList<>();
        Duration duration = duration();
        if (atZero != null && duration != null && duration.isZero()) {
            warnings.add(variable + " is 0: " + atZero);
        }
        if (deprecatedValue != null) {
            warnings.add(deprecatedVariable + " is deprecated and goes in the next release: set " + variable + "="
                    + written(deprecated(deprecatedVariable, deprecatedValue, unit))
                    + (parse(variable, value) != null ? " alone (both are set, to the same duration)" : ""));
        }
        return warnings;
    }

    private static Duration parse(String variable, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String written = value.strip();
        if (written.matches("[+-]?\\d+")) {
            throw new IllegalArgumentException(variable + " is a bare number, " + written + ", with no unit: write it "
                    + "as a duration, e.g. " + written + "s or " + written + "ms");
        }
        try {
            return DurationStyle.detectAndParse(written);
        } catch (IllegalArgumentException | ArithmeticException e) {
            // the message says all: the parser's own cause (a number too long) would only hide it as the root cause
            throw new IllegalArgumentException(variable + " is not a duration, " + written + ": write it as 30s, 500ms "
                    + "or PT30S");
        }
    }

    private static Duration deprecated(String variable, Long value, ChronoUnit unit) {
        if (value == null) {
            return null;
        }
        try {
            return Duration.of(value, unit);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(variable + " is out of range, " + value);
        }
    }

    /** A duration as an operator writes it: whole seconds as {@code 30s}, whole milliseconds as {@code 500ms}. */
    static String written(Duration duration) {
        if (duration.getNano() == 0) {
            return duration.getSeconds() + "s";
        }
        return duration.getNano() % 1_000_000 == 0 && Math.abs(duration.getSeconds()) < Long.MAX_VALUE / 1000 - 1
                ? duration.toMillis() + "ms" : duration.toString();
    }
}
