package org.caseassignments.api.http;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import org.caseassignments.api.policy.ResourceRef;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;

/**
 * One page of a list (a case's records, the foster homes, a home's placements), in creation order; {@code next_cursor} is null on the last page. A page may hold
 * fewer items than the limit when the caller may not read some rows of it: follow the cursor until it is null.
 */
public record ListPage<T>(List<T> items, String nextCursor) {

    /** The last page of a list the caller may read nothing of: no item, no cursor. */
    static <T> ListPage<T> empty() {
        return new ListPage<>(List.of(), null);
    }

    /** A listed row: its place in list order, and the resource its read is decided on. */
    public interface Row {

        Instant createdAt();

        UUID id();

        ResourceRef resource();
    }

    /**
     * The position after the last row of a page: its creation time (to the microsecond, as PostgreSQL keeps it)
     * and id. Clients see it only sealed in a cursor bound to its list ({@link ListPaging}).
     */
    public record Position(Instant createdAt, UUID id) {

        static Position of(Row row) {
            return new Position(row.createdAt(), row.id());
        }

        String encode(OpaqueCursor cursors, String list) {
            return cursors.encode(list, OpaqueCursor.micros(createdAt), id);
        }

        /** Empty for anything this service did not hand out for {@code list}. */
        static Optional<Position> decode(OpaqueCursor cursors, String list, String text) {
            return cursors.decode(list, text, 2).flatMap(fields -> {
                try {
                    return Optional.of(new Position(OpaqueCursor.fromMicros(fields.get(0)), UUID.fromString(fields.get(1))));
                } catch (IllegalArgumentException | ArithmeticException | DateTimeException e) {
                    return Optional.empty();
                }
            });
        }
    }

    /**
     * A page asked for: {@code limit} items of {@code list} after {@code after}, or from the start when it is null.
     */
    public record Query(String list, int limit, Position after) {

        /** The keyset of every list: creation time, then id, both columns of each listed table. */
        private static final String AFTER = " AND (created_at, id) > (?, ?)";
        private static final String IN_LIST_ORDER = " ORDER BY created_at, id LIMIT ?";

        /**
         * Runs {@code selectWhere} (a query ending in its {@code WHERE} clause) for this page's rows.
         *
         * @param args the arguments of {@code selectWhere}
         */
        public <R> List<R> read(JdbcTemplate jdbc, String selectWhere, RowMapper<R> rows, Object... args) {
            List<Object> all = new ArrayList<>(List.of(args));
            if (after != null) {
                all.add(after.createdAt().atOffset(ZoneOffset.UTC));
                all.add(after.id());
            }
            all.add(limit + 1); // one more than the page tells whether there is a next page
            return jdbc.query(selectWhere + (after == null ? "" : AFTER) + IN_LIST_ORDER, rows, all.toArray());
        }
    }
}
