package org.caseassignments.api.write;

import java.sql.SQLException;
import java.util.Map;

import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemCode;
import org.caseassignments.store.HomeGate;
import org.springframework.dao.DataAccessException;

/**
 * The database's foster-home gate (decision 22) as problem documents: a write that a gate trigger refused
 * answers 409 with the gate's code and the trigger's own message, which names the home and the counts and
 * nothing of the schema. Every repository statement that can fire the gate goes through {@link #translate}.
 */
public final class HomeGateRefusals {

    private static final Map<String, ProblemCode> CODES = Map.of(
            HomeGate.AT_CAPACITY, ProblemCode.HOME_AT_CAPACITY,
            HomeGate.NOT_LICENSED, ProblemCode.HOME_NOT_LICENSED,
            HomeGate.BELOW_OCCUPANCY, ProblemCode.CAPACITY_BELOW_OCCUPANCY,
            HomeGate.NEEDS_HOME, ProblemCode.PLACEMENT_NEEDS_HOME,
            HomeGate.FINAL_KEEPS_HOME, ProblemCode.FINAL_PLACEMENT_KEEPS_HOME,
            HomeGate.OTHER_JURISDICTION, ProblemCode.HOME_OF_ANOTHER_JURISDICTION);

    private HomeGateRefusals() {
    }

    /** The gate's refusal as its problem; any other failure as it is. */
    public static RuntimeException translate(DataAccessException failure) {
        Throwable cause = failure.getMostSpecificCause();
        if (!(cause instanceof SQLException sql) || !CODES.containsKey(sql.getSQLState())) {
            return failure;
        }
        // the driver's text is the severity, the message, then the context lines (the trigger's name, its line)
        String message = String.valueOf(sql.getMessage()).lines().findFirst().orElse("")
                .replaceFirst("^[A-Z]+: ", "");
        return new ApiProblem(CODES.get(sql.getSQLState()), message);
    }
}
