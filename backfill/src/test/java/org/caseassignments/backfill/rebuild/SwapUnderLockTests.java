package org.caseassignments.backfill.rebuild;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.transaction.TransactionSystemException;

class SwapUnderLockTests {

    @Test
    void shouldTakeAStatementFailureThatEndedItsSessionForAnEndedSessionWhenTheRollbackFailedWithoutASqlState() {
        TransactionSystemException rollback = new TransactionSystemException("JDBC rollback failed",
                new SQLException("connection closed"));
        rollback.initApplicationException(new UncategorizedSQLException("LOCK", "LOCK TABLE ...",
                new SQLException("terminating connection due to administrator command", "57P01")));

        assertThat(SwapUnderLock.sessionEnded(rollback)).startsWith("SQLSTATE 57P01");
    }

    @Test
    void shouldTakeACommitThatFailedOnAClosedConnectionForAnEndedSession() {
        TransactionSystemException commit = new TransactionSystemException("JDBC commit failed",
                new SQLException("An I/O error occurred while sending to the backend.", "08006"));

        assertThat(SwapUnderLock.sessionEnded(commit)).startsWith("SQLSTATE 08006");
    }
}
