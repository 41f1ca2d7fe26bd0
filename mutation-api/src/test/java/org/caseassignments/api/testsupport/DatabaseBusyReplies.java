package org.caseassignments.api.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.test.system.CapturedOutput;

/**
 * What an answer 503 {@code DATABASE_BUSY} holds to, wherever the request met the database's refusal: the problem
 * document with {@code Retry-After: 1} (none for a statement timeout), nothing of the statement, the tables or the
 * server's message in the body, one more count of its SQLSTATE, one log line for it, at WARN, and nothing at ERROR
 * (no 500, no stack from the container).
 * Taken before the request ({@link #expect}), so that the count it compares is this request's alone.
 */
public final class DatabaseBusyReplies {

    private static final String METER = "api.database.busy";

    private final MeterRegistry meters;
    private final String reason;
    private final double countedBefore;

    private DatabaseBusyReplies(MeterRegistry meters, String reason) {
        this.meters = meters;
        this.reason = reason;
        this.countedBefore = meters.counter(METER, "sqlstate", reason).count();
    }

    /** @param reason the SQLSTATE the refusal carries, or {@code pool-timeout} */
    public static DatabaseBusyReplies expect(MeterRegistry meters, String reason) {
        return new DatabaseBusyReplies(meters, reason);
    }

    /** @param output what the test logged: this request's refusal is the only one answered in it */
    public void assertAnswered(Reply reply, CapturedOutput output) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(503);
        assertThat(reply.code()).isEqualTo("DATABASE_BUSY");
        assertThat(reply.contentType()).startsWith("application/problem+json");
        if ("57014".equals(reason)) {
            assertThat(reply.header("Retry-After")).as("a statement timeout promises no faster retry").isEmpty();
        } else {
            assertThat(reply.header("Retry-After")).hasValue("1");
        }
        assertThat(reply.body()).doesNotContainIgnoringCase("select").doesNotContainIgnoringCase("update")
                .doesNotContain("foster_homes", "case_assignments", "kinship_options", "SQLSTATE", "canceling",
                        "lock timeout", "Connection is not available", "Hikari", reason);
        assertThat(meters.counter(METER, "sqlstate", reason).count()).isEqualTo(countedBefore + 1);
        assertThat(output.getAll().lines().filter(line -> line.contains("answered 503 DATABASE_BUSY")).toList())
                .singleElement().asString().contains("WARN").contains("SQLSTATE " + reason);
        assertThat(output.getAll()).doesNotContain("Unhandled failure");
        // the level, as the plain pattern or the JSON lines print it; the server's message itself may say "ERROR:".
        // The scheduled jobs' threads are not the request's: one that met the held pool logs its own failure.
        assertThat(output.getAll().lines().filter(line -> line.matches("\\S+\\s+ERROR\\s.*")
                        || line.contains("\"log.level\":\"ERROR\""))
                .filter(line -> !line.contains("scheduling-")).toList())
                .as("nothing logged at ERROR for it, by the application or the container").isEmpty();
    }
}
