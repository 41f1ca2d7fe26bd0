package org.caseassignments.api.audit;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;

import org.caseassignments.api.http.OpaqueCursor;

/**
 * The position after the last record of a page: its time (to the microsecond, as PostgreSQL keeps it)
 * and id. Clients see it only sealed in a cursor bound to its query ({@link #scope}): the caller's
 * jurisdiction and the filters, so a cursor of one query is a 400 with any other.
 */
record AuditCursor(Instant recordedAt, long id) {

    /** The list a cursor of this query belongs to: the jurisdiction's records, with these filters. */
    static String scope(String jurisdiction, UUID resourceId, String callerSub, Instant from, Instant until) {
        return OpaqueCursor.scope("audit", jurisdiction, resourceId, callerSub, from, until);
    }

    String encode(OpaqueCursor cursors, String scope) {
        return cursors.encode(scope, OpaqueCursor.micros(recordedAt), id);
    }

    /**
     * Empty for anything this service did not hand out for {@code scope}: also a time no record can have, or an id no
     * sequence gives.
     */
    static Optional<AuditCursor> decode(OpaqueCursor cursors, String scope, String text) {
        return cursors.decode(scope, text, 2).flatMap(fields -> {
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
