package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The every-row probe rewrites the row of the case it is given with its own values; a row gone or held by another
 * transaction is not probed, and the probe waits for no lock. Each test on a database of its own.
 */
class AssignmentWriterProbeIntegrationTests {

    private final TestDatabase db = TestDatabase.migrated();
    private final JdbcTemplate jdbc = db.jdbc();
    private final AssignmentWriter writer = new AssignmentWriter(jdbc);
    private final TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(db.dataSource()));

    @Test
    void shouldRewriteTheRowOfTheGivenCaseWithItsOwnValuesAndChangeNothing() {
        // Given a case stored
        UUID stored = storedCase();
        Map<String, Object> before = jdbc.queryForMap("SELECT * FROM case_assignments WHERE case_id = ?", stored);

        // When the probe runs on it, committed
        boolean probed = transaction.execute(status -> writer.checkTakesARow(stored));

        // Then it probed that row, and the row holds what it held
        assertThat(probed).isTrue();
        assertThat(jdbc.queryForMap("SELECT * FROM case_assignments WHERE case_id = ?", stored)).isEqualTo(before);
    }

    @Test
    void shouldProbeNothingWhenTheProjectionHoldsNoRowOfTheCase() {
        // Given a case stored, and another that is not
        storedCase();

        // When the probe runs on the case the projection does not hold
        boolean probed = transaction.execute(status -> writer.checkTakesARow(UUID.randomUUID()));

        // Then there is no probe
        assertThat(probed).isFalse();
    }

    @Test
    void shouldProbeNothingWithoutWaitingWhenAnotherTransactionHoldsTheRow() throws Exception {
        // Given a case stored, its row locked by a second connection's open transaction
        UUID stored = storedCase();
        try (Connection holder = db.dataSource().getConnection()) {
            holder.setAutoCommit(false);
            try (Statement lock = holder.createStatement()) {
                lock.execute("SELECT 1 FROM case_assignments WHERE case_id = '" + stored + "' FOR UPDATE");
            }

            // When the probe runs on it (a wait would hold it until the holder ends, which it does only after)
            boolean probed = transaction.execute(status -> {
                status.setRollbackOnly();
                return writer.checkTakesARow(stored);
            });

            // Then it skipped the row: no probe
            assertThat(probed).isFalse();
            holder.rollback();
        }
    }

    private UUID storedCase() {
        UUID stored = UUID.randomUUID();
        transaction.execute(status -> writer.apply(List.of(AssignmentUpdate.changed(stored, "w-stored", "s", 3)
                .withJurisdiction("north"))));
        return stored;
    }
}
