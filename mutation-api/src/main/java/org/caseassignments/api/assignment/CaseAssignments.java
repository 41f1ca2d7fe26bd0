package org.caseassignments.api.assignment;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** Reads of the projection; what a missing row or a placeholder means is decided by {@link CaseAssignment}. */
@Repository
public class CaseAssignments {

    private static final String FIND = """
            SELECT case_id, assigned_worker_sub, supervisor_sub, assignment_revision
              FROM case_assignments
             WHERE case_id = ?
            """;

    /** Blocks the projector's upsert of this row (it takes a row lock first) until the holder commits. */
    private static final String FIND_FOR_SHARE = FIND + " FOR SHARE";

    private final JdbcTemplate jdbc;

    CaseAssignments(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** The projection as it is now, unknown when there is no row; read from the pool, never in a transaction. */
    public CaseAssignment read(UUID caseId) {
        return jdbc.query(FIND, CaseAssignments::map, caseId).stream().findFirst()
                .orElseGet(() -> CaseAssignment.unknown(caseId));
    }

    /** Inside the caller's transaction: the row, locked {@code FOR SHARE} until commit; empty when there is none. */
    public Optional<CaseAssignment> readForShare(UUID caseId) {
        return jdbc.query(FIND_FOR_SHARE, CaseAssignments::map, caseId).stream().findFirst();
    }

    private static CaseAssignment map(ResultSet rs, int row) throws SQLException {
        long revision = rs.getLong("assignment_revision");
        UUID caseId = rs.getObject("case_id", UUID.class);
        return revision < 0 ? CaseAssignment.unknown(caseId)
                : new CaseAssignment(caseId, new AssignmentPair(rs.getString("assigned_worker_sub"),
                        rs.getString("supervisor_sub")), revision);
    }
}
