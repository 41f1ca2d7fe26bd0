package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.CannotGetJdbcConnectionException;

class DatabaseRejectionTests {

    @Test
    void shouldNameTheSqlStateClassOfDataThePostgresqlRefuses() {
        assertThat(DatabaseRejection.of(wrapped("22021"))).get()
                .extracting(DatabaseRejection::reason, DatabaseRejection::sqlState)
                .containsExactly(DatabaseRejection.DATA_EXCEPTION, "22021");
        assertThat(DatabaseRejection.of(wrapped("22001"))).get().extracting(DatabaseRejection::reason)
                .isEqualTo(DatabaseRejection.DATA_EXCEPTION);
        assertThat(DatabaseRejection.of(wrapped("23514"))).get().extracting(DatabaseRejection::reason)
                .isEqualTo(DatabaseRejection.INTEGRITY_VIOLATION);
        assertThat(DatabaseRejection.of(wrapped("54000"))).get().extracting(DatabaseRejection::reason)
                .isEqualTo(DatabaseRejection.PROGRAM_LIMIT);
    }

    @Test
    void shouldTreatConnectionConcurrencyShutdownResourceAndSchemaFailuresAsTransient() {
        for (String state : new String[] {"08006", "08001", "40001", "40P01", "57P01", "57P02", "57P03", "53300", "53100",
                "42501", "42P01", "25006", "XX000"}) {
            assertThat(DatabaseRejection.of(wrapped(state))).as(state).isEmpty();
        }
        assertThat(DatabaseRejection.of(new CannotGetJdbcConnectionException("pool timed out",
                new SQLException("Connection is not available, request timed out after 5000ms.")))).isEmpty();
        assertThat(DatabaseRejection.of(new IllegalStateException("no SQL state at all"))).isEmpty();
    }

    @Test
    void shouldIsolateDataRetryTheDatabasesStateShrinkOnTimeoutsAndRetryThenIsolateEverythingElse() {
        for (String state : new String[] {"22021", "23514", "54011"}) {
            assertThat(DatabaseRejection.handling(wrapped(state))).as(state).isEqualTo(DatabaseRejection.Handling.ISOLATE);
        }
        for (String state : new String[] {"08006", "40001", "40P01", "57P01", "53300", "42P01", "25006", "55P03", "28P01"}) {
            assertThat(DatabaseRejection.handling(wrapped(state))).as(state).isEqualTo(DatabaseRejection.Handling.RETRY);
        }
        assertThat(DatabaseRejection.handling(new IllegalStateException("no SQL state at all")))
                .isEqualTo(DatabaseRejection.Handling.RETRY);
        assertThat(DatabaseRejection.handling(wrapped("57014"))).isEqualTo(DatabaseRejection.Handling.SHRINK);
        assertThat(DatabaseRejection.handling(wrapped("25P04"))).isEqualTo(DatabaseRejection.Handling.SHRINK);
        // 54000 is a full NOTIFY queue as well as a too large index entry: the database's or the row's
        for (String state : new String[] {"P0001", "42501", "XX001", "XX000", "54000"}) {
            assertThat(DatabaseRejection.handling(wrapped(state))).as(state)
                    .isEqualTo(DatabaseRejection.Handling.RETRY_THEN_ISOLATE);
        }
        assertThat(DatabaseRejection.refusedAlone(wrapped("P0001")))
                .extracting(DatabaseRejection::reason, DatabaseRejection::sqlState)
                .containsExactly(DatabaseRejection.ROW_REFUSED, "P0001");
    }

    private static RuntimeException wrapped(String sqlState) {
        return new DataIntegrityViolationException("statement failed", new SQLException("ERROR " + sqlState, sqlState));
    }
}
