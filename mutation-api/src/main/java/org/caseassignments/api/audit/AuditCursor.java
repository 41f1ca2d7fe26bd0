package org.caseassignments.api.audit;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.Optional;

import org.caseassignments.api.http.OpaqueCursor;

/**
 * The position after the last record of a page: its time (to the microsecond, as PostgreSQL keeps it)
 * and id. Opaque to clients; it carries no filter and no jurisdiction, so a cursor of one query used
 * with another only moves that query's start, never what it may see.
 */
record AuditCursor(Instant recordedAt, long id) {

    String encode() {
        return OpaqueCursor.encode(OpaqueCursor.micros(recordedAt), id);
    }

    /** Empty for anything this service did not hand out: also a time no record can have, or an id no sequence gives. */
    static Optional<AuditCursor> decode(String text) {
        return OpaqueCursor.decode(text, 2).flatMap(fields -> {
            try {
                Instant recordedAt = OpaqueCursor.fromMicros(fields.get(0));
                long id = Long.parseLong(fields.get(1));
                return RecordedAt.inRange(recordedAt) && id > 0 ? Optional.of(new AuditCursor(recordedAt, id))
                        : Optional.empty();
            } catch (IllegalArgumentException | ArithmeticException | DateTimeException e) {
                return Optional.empty();
            }
        });
    }
}
