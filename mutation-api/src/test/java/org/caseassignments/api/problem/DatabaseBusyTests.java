package org.caseassignments.api.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.SocketTimeoutException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;

class DatabaseBusyTests {

    @ParameterizedTest
    @ValueSource(strings = {"53300", "53200", "55P03", "40P01", "40001", "08006"})
    void shouldBeBusyWithRetryAfterForTheDatabasesOwnRefusals(String sqlState) {
        DatabaseBusy busy = DatabaseBusy.of(new DataAccessResourceFailureException("wrapped",
                new SQLException("refused", sqlState)));

        assertThat(busy).isNotNull();
        assertThat(busy.reason()).isEqualTo(sqlState);
        assertThat(busy.retryAfter()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void shouldBeBusyWithRetryAfterWhenNoPooledConnectionIsFree() {
        DatabaseBusy busy = DatabaseBusy.of(new SQLTransientConnectionException("pool - Connection is not available"));

        assertThat(busy.reason()).isEqualTo(DatabaseBusy.POOL_TIMEOUT);
        assertThat(busy.retryAfter()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void shouldBeBusyWithoutRetryAfterWhenAStatementRanPastItsTimeout() {
        DatabaseBusy busy = DatabaseBusy.of(new SQLException("canceling statement due to statement timeout", "57014"));

        assertThat(busy.reason()).isEqualTo("57014");
        assertThat(busy.retryAfter()).as("the same statement may run as long again").isNull();
    }

    @Test
    void shouldNotBeBusyForAProtocolViolation() {
        assertThat(DatabaseBusy.of(new SQLException("protocol violation", "08P01"))).isNull();
    }

    @Test
    void shouldNotBeBusyWhenTheConnectionWasLostToTheSocketTimeoutOfTheRequestsOwnStatement() {
        SQLException lost = new SQLException("An I/O error occurred while sending to the backend.", "08006",
                new SocketTimeoutException("Read timed out"));

        assertThat(DatabaseBusy.of(lost)).isNull();
    }

    @Test
    void shouldNotBeBusyWhenThePoolFailedForBadCredentials() {
        SQLTransientConnectionException pool = new SQLTransientConnectionException("pool - Connection is not available",
                new SQLException("password authentication failed", "28P01"));

        assertThat(DatabaseBusy.of(pool)).isNull();
    }
}
