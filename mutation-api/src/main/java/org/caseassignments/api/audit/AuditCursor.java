package org.caseassignments.api.audit;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.Optional;

/**
 * The position after the last record of a page: its time (to the microsecond, as PostgreSQL keeps it)
 * and id. Opaque to clients; it carries no filter and no jurisdiction, so a cursor of one query used
 * with another only moves that query's start, never what it may see.
 */
record AuditCursor(Instant recordedAt, long id) {

    String encode() {
        long micros = ChronoUnit.MICROS.between(Instant.EPOCH, recordedAt);
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((micros + ":" + id).getBytes(StandardCharsets.US_ASCII));
    }

    /** Empty for anything this service did not hand out: also a time no record can have, or an id no sequence gives. */
    static Optional<AuditCursor> decode(String text) {
        try {
            String plain = new String(Base64.getUrlDecoder().decode(text), StandardCharsets.US_ASCII);
            int colon = plain.indexOf(':');
            if (colon < 1) {
                return Optional.empty();
            }
            long micros = Long.parseLong(plain.substring(0, colon));
            long id = Long.parseLong(plain.substring(colon + 1));
            Instant recordedAt = Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
            return RecordedAt.inRange(recordedAt) && id > 0 ? Optional.of(new AuditCursor(recordedAt, id)) : Optional.empty();
        } catch (IllegalArgumentException | ArithmeticException | java.time.DateTimeException e) {
            return Optional.empty();
        }
    }
}
