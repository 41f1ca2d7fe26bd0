package org.caseassignments.api.audit;

import java.time.Instant;

/**
 * The times a filter or a cursor of {@code GET /audit} may name: from 0001-01-01T00:00:00Z to
 * 9999-12-31T23:59:59.999999Z, the calendar dates of requests get too. Java reads instants hundreds of
 * millions of years away; PostgreSQL's {@code timestamptz} ends in the year 294276 (an error, 500) and
 * reads years before 4713 BC as something else (an empty page instead of a refusal). No record is
 * outside this range, so a time outside it is a client's mistake.
 */
final class RecordedAt {

    static final Instant FIRST = Instant.parse("0001-01-01T00:00:00Z");
    static final Instant LAST = Instant.parse("9999-12-31T23:59:59.999999Z");

    private RecordedAt() {
    }

    static boolean inRange(Instant time) {
        return !time.isBefore(FIRST) && !time.isAfter(LAST);
    }
}
