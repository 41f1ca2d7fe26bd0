package org.caseassignments.api.testsupport;

import java.util.List;
import java.util.UUID;

import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.springframework.jdbc.core.JdbcTemplate;

/** Cases known to the projection, written as the projector writes them: through the guarded writer. */
public final class Cases {

    private Cases() {
    }

    /** The jurisdiction of the cases these helpers create unless told, and of the test tokens. */
    public static final String JURISDICTION = "georgia";

    /** A new Georgia case whose projection row holds this assignment. */
    public static UUID assignedTo(JdbcTemplate jdbc, String worker, String supervisor, long revision) {
        return assignedTo(jdbc, worker, supervisor, revision, JURISDICTION);
    }

    /** A new case of this jurisdiction (null: unknown) whose projection row holds this assignment. */
    public static UUID assignedTo(JdbcTemplate jdbc, String worker, String supervisor, long revision,
                                  String jurisdiction) {
        UUID caseId = UUID.randomUUID();
        new AssignmentWriter(jdbc).apply(List.of(AssignmentUpdate.changed(caseId, worker, supervisor, revision)
                .withJurisdiction(jurisdiction)));
        return caseId;
    }
}
