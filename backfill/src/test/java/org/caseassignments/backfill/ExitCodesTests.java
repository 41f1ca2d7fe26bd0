package org.caseassignments.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

import org.apache.kafka.common.errors.CoordinatorNotAvailableException;
import org.apache.kafka.common.errors.CorruptRecordException;
import org.apache.kafka.common.errors.NetworkException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.caseassignments.schemas.serde.DecodeFailure;
import org.caseassignments.schemas.serde.EventDecodingException;
import org.caseassignments.schemas.serde.SchemaRegistryClient;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;

/** 69 only where running again later can help; 2 where the command or the setup must change first. */
class ExitCodesTests {

    @ParameterizedTest(name = "SQLState {0}")
    @ValueSource(strings = {"08001", "08006", "57P01", "57P02", "57P03", "53300"})
    void shouldExit69WhenTheRootSqlStateSaysTheDatabaseDidNotAnswerOrIsShuttingDownOrFull(String sqlState) {
        assertThat(ExitCodes.failure(database(sqlState))).isEqualTo(ExitCodes.UNAVAILABLE);
    }

    @ParameterizedTest(name = "SQLState {0}")
    @ValueSource(strings = {"28P01", "28000", "3D000", "54000", "54001", "23505", "42P01"})
    void shouldExit2WhenTheRootSqlStateSaysAuthenticationDatabaseNameLimitsOrDataAreWrongWhateverTheWrapper(String sqlState) {
        assertThat(ExitCodes.failure(database(sqlState))).isEqualTo(ExitCodes.COULD_NOT_START);
    }

    @Test
    void shouldExit69WhenTheBrokerTimedOutOrTheNetworkFailedOrNoCoordinatorIsAvailable() {
        assertThat(ExitCodes.failure(new TimeoutException("Timeout expired while fetching topic metadata")))
                .isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(ExitCodes.failure(new IllegalStateException("stopped", new NetworkException("disconnected"))))
                .isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(ExitCodes.failure(new CoordinatorNotAvailableException("no coordinator")))
                .isEqualTo(ExitCodes.UNAVAILABLE);
    }

    @Test
    void shouldExit2ForAMissingTopicOrACorruptRecordThoughKafkaCallsThemRetriable() {
        assertThat(ExitCodes.failure(new UnknownTopicOrPartitionException("case.events.dlq")))
                .isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(ExitCodes.failure(new CorruptRecordException("checksum"))).isEqualTo(ExitCodes.COULD_NOT_START);
    }

    @Test
    void shouldExit2WhenTheRegistryRefusedTheCredentialsAnd69WhenItDidNotAnswer() {
        assertThat(ExitCodes.failure(registry(new SchemaRegistryClient.RegistryException("answered 401", 401))))
                .isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(ExitCodes.failure(registry(new SchemaRegistryClient.RegistryException("answered 403", 403))))
                .isEqualTo(ExitCodes.COULD_NOT_START);
        assertThat(ExitCodes.failure(registry(new SchemaRegistryClient.RegistryException("answered 503", 503))))
                .isEqualTo(ExitCodes.UNAVAILABLE);
        assertThat(ExitCodes.failure(registry(new SchemaRegistryClient.RegistryException("unreachable",
                new ConnectException("Connection refused"))))).isEqualTo(ExitCodes.UNAVAILABLE);
    }

    @Test
    void shouldExit2ForAnyOtherFailure() {
        assertThat(ExitCodes.failure(new IllegalStateException("the shadow tables exist"))).isEqualTo(ExitCodes.COULD_NOT_START);
    }

    /** As a pool reports it: a transient connection failure, wrapped by Spring, around the driver's SQLException. */
    private static Exception database(String sqlState) {
        SQLException driver = new SQLException("server said " + sqlState, sqlState);
        return new DataAccessResourceFailureException("could not get a connection",
                new SQLTransientConnectionException("connection is not available", sqlState, driver));
    }

    private static Exception registry(SchemaRegistryClient.RegistryException answer) {
        return new EventDecodingException(DecodeFailure.REGISTRY_UNAVAILABLE, answer.getMessage(), answer);
    }
}
