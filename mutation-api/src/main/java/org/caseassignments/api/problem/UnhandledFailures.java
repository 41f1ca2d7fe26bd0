package org.caseassignments.api.problem;

import java.sql.SQLException;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The answer to a failure nothing raised as a problem of its own, wherever the request met it: in a handler
 * ({@link ErrorHandling}), in a filter that reads the database before or after the handlers (the hold of a write
 * by {@code Min-Assignment-Revision}), in the outermost filter for an exception any other filter lets through
 * ({@link UnhandledFailureFilter}), or on the error page an exception still reaches ({@link ProblemErrorController}).
 * The database refusing for its own state is 503 {@code DATABASE_BUSY} ({@link DatabaseBusy}), logged once at WARN
 * with its SQLSTATE and the server's first line (at ERROR for a deadlock, a lock-order defect to fix) and counted in
 * {@code api.database.busy}; anything else is 500 {@code INTERNAL_ERROR}, logged at ERROR with its stack. Neither answer carries the statement, a table or the
 * server's message.
 */
@Component
public final class UnhandledFailures {

    private static final Logger log = LoggerFactory.getLogger(UnhandledFailures.class);

    private static final String DEADLOCK = "40P01";

    /**
     * The detail of every 500: it claims nothing about what the request changed (a filter may fail after the handler
     * wrote), so the client re-reads before it retries.
     */
    static final String FAILED = "The request failed on the server; re-read what it meant to change before retrying, "
            + "and report the request id if it persists";

    private final MeterRegistry meters;

    UnhandledFailures(MeterRegistry meters) {
        this.meters = meters;
    }

    /**
     * The problem to answer {@code request} with, logged and counted here: the caller only writes it.
     *
     * @param request the request that failed; on the error page, the path logged is the one the client asked for
     */
    public ApiProblem answer(Throwable failure, HttpServletRequest request) {
        Object original = request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI);
        String path = original instanceof String uri ? uri : request.getRequestURI();
        DatabaseBusy busy = DatabaseBusy.of(failure);
        if (busy == null) {
            log.error("Unhandled failure on {} {}", request.getMethod(), path, failure);
            return new ApiProblem(ProblemCode.INTERNAL_ERROR, FAILED);
        }
        SQLException sql = ErrorHandling.causedBy(failure, SQLException.class);
        String cause = sql == null ? failure.getClass().getSimpleName()
                : String.valueOf(sql.getMessage()).lines().findFirst().orElse("");
        if (DEADLOCK.equals(busy.reason())) {
            log.error("Database busy on {} {}: SQLSTATE {} ({}); answered 503 DATABASE_BUSY", request.getMethod(), path,
                    busy.reason(), cause);
        } else {
            log.warn("Database busy on {} {}: SQLSTATE {} ({}); answered 503 DATABASE_BUSY", request.getMethod(), path,
                    busy.reason(), cause);
        }
        meters.counter("api.database.busy", "sqlstate", busy.reason()).increment();
        return busy;
    }
}
