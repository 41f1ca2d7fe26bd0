package org.caseassignments.backfill.history;

import java.time.Instant;
import java.util.List;
import java.util.UUID;

import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.store.SeenRevision;
import org.springframework.jdbc.core.JdbcTemplate;

/** Entries of the assignments' history, recorded as the projector records them: through the guarded writer. */
final class HistoryEntries {

    private HistoryEntries() {
    }

    static void record(JdbcTemplate jdbc, UUID caseId, long revision, Instant occurredAt) {
        AssignmentUpdate update = AssignmentUpdate.changed(caseId, "w-" + revision, "s", revision);
        new AssignmentWriter(jdbc).apply(List.of(update), List.of(new SeenRevision(update, occurredAt)));
    }

    static List<Long> revisions(JdbcTemplate jdbc, UUID caseId) {
        return jdbc.queryForList("SELECT assignment_revision FROM case_assignment_history WHERE case_id = ? "
                + "ORDER BY assignment_revision", Long.class, caseId);
    }
}
