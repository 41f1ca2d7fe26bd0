package org.caseassignments.store;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.SignStyle;
import java.time.temporal.ChronoField;
import java.util.Locale;

/**
 * The one check of an instant before it reaches a {@code timestamptz} column, and the text it is sent as. An event's
 * {@code occurred_at} is an Avro {@code timestamp-millis}: a long that reaches hundreds of millions of years either
 * way, where PostgreSQL stores 4713 BC to 294276 AD. A value outside that range would fail the statement of every
 * row written with it (SQLSTATE 22008), so it is refused as bad input up front, like a subject PostgreSQL cannot
 * store ({@link StorableText}).
 */
public final class StorableTime {

    /** PostgreSQL's first {@code timestamptz}: 4714-11-24 00:00:00 UTC BC, the year -4713 of the ISO calendar. */
    public static final Instant FIRST = Instant.parse("-4713-11-24T00:00:00Z");

    /** PostgreSQL's last {@code timestamptz}, to its microsecond. */
    public static final Instant LAST = Instant.parse("+294276-12-31T23:59:59.999999Z");

    /**
     * As PostgreSQL reads a {@code timestamptz} over its whole range: the year of the era with {@code AD}/{@code BC}
     * (ISO text writes year -4713 or +10000, which PostgreSQL reads as an offset and refuses), microseconds, UTC.
     */
    private static final DateTimeFormatter TEXT = new DateTimeFormatterBuilder()
            .appendValue(ChronoField.YEAR_OF_ERA, 4, 10, SignStyle.NOT_NEGATIVE)
            .appendPattern("-MM-dd HH:mm:ss.SSSSSS'Z' G")
            .toFormatter(Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private StorableTime() {
    }

    /** What is wrong with {@code value} as the column {@code column}, or null when it can be stored (null can). */
    public static String problem(String column, Instant value) {
        if (value == null || !value.isBefore(FIRST) && !value.isAfter(LAST)) {
            return null;
        }
        return column + " " + value + " is outside what PostgreSQL stores (" + FIRST + " to " + LAST + ")";
    }

    /** Years 1 to 9999, which {@link Instant#toString()} writes as PostgreSQL reads them (and faster). */
    private static final Instant ISO_FROM = Instant.parse("0001-01-01T00:00:00Z");
    private static final Instant ISO_UNTIL = Instant.parse("+10000-01-01T00:00:00Z");

    /** {@code value} as text PostgreSQL casts to the same {@code timestamptz}; null for null. */
    public static String text(Instant value) {
        if (value == null) {
            return null;
        }
        return !value.isBefore(ISO_FROM) && value.isBefore(ISO_UNTIL) ? value.toString() : TEXT.format(value);
    }
}
