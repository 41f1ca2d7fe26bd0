package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The upstream's trace id of the event that set an assignment is stored with it: on the projection row only when
 * that event's revision is applied, and on the history entry of its revision.
 */
class AssignmentTraceIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final String TRACE_1 = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String TRACE_2 = "0af7651916cd43dd8448eb211c80319c";

    private final JdbcTemplate jdbc = DB.jdbc();
    private final AssignmentWriter writer = new AssignmentWriter(jdbc);

    @Test
    void shouldStoreTheTraceIdOfTheEventWhoseRevisionIsAppliedOnTheRowAndInTheHistory() {
        UUID caseId = UUID.randomUUID();

        writer.apply(List.of(AssignmentUpdate.created(caseId, "w-0", "s-0").withTraceId(TRACE_1)));
        assertThat(traceOfRow(caseId)).isEqualTo(TRACE_1);

        // an event at a revision the row already passed changes neither the row nor its trace id
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-2", "s-2", 2).withTraceId(TRACE_2),
                AssignmentUpdate.changed(caseId, "w-1", "s-1", 1).withTraceId("11111111111111111111111111111111")));
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-0b", "s-0", 0).withTraceId(TRACE_1)));

        assertThat(traceOfRow(caseId)).isEqualTo(TRACE_2);
        assertThat(historyTraces(caseId)).containsExactlyInAnyOrderEntriesOf(Map.of(
                0L, TRACE_1, 1L, "11111111111111111111111111111111", 2L, TRACE_2));
    }

    @Test
    void shouldClearTheTraceIdWhenARevisionWithoutOneIsApplied() {
        UUID caseId = UUID.randomUUID();
        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-1", "s-1", 1).withTraceId(TRACE_1)));

        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-2", "s-2", 2)));

        // the row says which event set it: this one carried no trace
        assertThat(traceOfRow(caseId)).isNull();
        assertThat(historyTraces(caseId)).containsEntry(1L, TRACE_1).containsEntry(2L, "none");
    }

    @Test
    void shouldKeepTheWinnersTraceIdWhenTheBatchReductionKeepsAnEarlierJurisdiction() {
        UUID caseId = UUID.randomUUID();

        writer.apply(List.of(AssignmentUpdate.changed(caseId, "w-1", "s-1", 1).withJurisdiction("georgia")
                        .withTraceId(TRACE_1),
                AssignmentUpdate.changed(caseId, "w-2", "s-2", 2).withTraceId(TRACE_2)));

        assertThat(traceOfRow(caseId)).isEqualTo(TRACE_2);
        assertThat(jdbc.queryForObject("SELECT jurisdiction FROM case_assignments WHERE case_id = ?", String.class, caseId))
                .isEqualTo("georgia");
    }

    private String traceOfRow(UUID caseId) {
        return jdbc.queryForObject("SELECT trace_id FROM case_assignments WHERE case_id = ?", String.class, caseId);
    }

    private Map<Long, String> historyTraces(UUID caseId) {
        return jdbc.query("""
                SELECT assignment_revision, coalesce(trace_id, 'none') AS trace_id
                  FROM case_assignment_history WHERE case_id = ?
                """, rs -> {
            Map<Long, String> traces = new java.util.TreeMap<>();
            while (rs.next()) {
                traces.put(rs.getLong(1), rs.getString(2));
            }
            return traces;
        }, caseId);
    }
}
