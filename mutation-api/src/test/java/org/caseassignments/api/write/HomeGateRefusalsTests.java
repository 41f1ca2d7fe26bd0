package org.caseassignments.api.write;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;

import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemCode;
import org.caseassignments.store.HomeGate;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.UncategorizedSQLException;

class HomeGateRefusalsTests {

    @Test
    void shouldAnswerTheGatesRefusalWithItsCodeAndOnlyTheTriggersMessage() {
        RuntimeException answer = HomeGateRefusals.translate(failure(HomeGate.AT_CAPACITY, """
                ERROR: Foster home 7f0c is at capacity: 1 ACTIVE placement(s), capacity 1
                  Where: PL/pgSQL function placements_home_gate() line 33 at RAISE"""));

        assertThat(answer).isInstanceOf(ApiProblem.class);
        assertThat(((ApiProblem) answer).code()).isEqualTo(ProblemCode.HOME_AT_CAPACITY);
        assertThat(answer.getMessage()).isEqualTo("Foster home 7f0c is at capacity: 1 ACTIVE placement(s), capacity 1");
    }

    @Test
    void shouldNameEachOfTheGatesStatesAndLeaveEveryOtherFailureAsItIs() {
        assertThat(((ApiProblem) HomeGateRefusals.translate(failure(HomeGate.NOT_LICENSED, "ERROR: x"))).code())
                .isEqualTo(ProblemCode.HOME_NOT_LICENSED);
        assertThat(((ApiProblem) HomeGateRefusals.translate(failure(HomeGate.BELOW_OCCUPANCY, "ERROR: x"))).code())
                .isEqualTo(ProblemCode.CAPACITY_BELOW_OCCUPANCY);
        DataAccessException deadlock = failure("40P01", "ERROR: deadlock detected");
        assertThat(HomeGateRefusals.translate(deadlock)).isSameAs(deadlock);
    }

    private static DataAccessException failure(String sqlState, String message) {
        return new UncategorizedSQLException("UPDATE placements", "UPDATE placements SET …",
                new SQLException(message, sqlState));
    }
}
