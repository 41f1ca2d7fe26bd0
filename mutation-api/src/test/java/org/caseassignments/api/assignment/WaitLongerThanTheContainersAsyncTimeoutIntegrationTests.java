package org.caseassignments.api.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.UUID;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A wait the caller may ask for can be longer than the servlet container's own timeout of an asynchronous
 * request ({@code spring.mvc.async.request-timeout}, Tomcat's 30 s unless set): the request's own wait decides
 * when it ends, and it ends as 409 {@code PROJECTION_BEHIND}, never as the container's timeout. Shown with a
 * container timeout of one second and waits of two.
 */
@ApiIntegrationTest
class WaitLongerThanTheContainersAsyncTimeoutIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    private static final Duration WAIT = Duration.ofSeconds(2);

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("spring.mvc.async.request-timeout", () -> "1s");
        registry.add("api.assignment.max-wait", () -> "5s");
    }

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final String worker = TestTokens.caseworker("w-1").token();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldAnswerAWaitedReadWith409ProjectionBehindWhenItsWaitOutlastsTheContainersTimeout() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);

        long started = System.nanoTime();
        Reply reply = api.get("/cases/" + caseId + "/assignment?min_revision=3&wait=" + WAIT, worker);
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(409);
        assertThat(reply.code()).isEqualTo("PROJECTION_BEHIND");
        assertThat(reply.json().path("current_revision").asLong()).isEqualTo(1);
        assertThat(took).as("the whole wait was waited").isGreaterThanOrEqualTo(WAIT);
    }

    @Test
    void shouldAnswerAWaitedWriteWith409ProjectionBehindWhenItsWaitOutlastsTheContainersTimeout() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);

        long started = System.nanoTime();
        Reply reply = api.send(ApiClient.request("PATCH", "/placements/" + placement).token(worker)
                .ifMatch(TestETags.placement(placement, 1)).json("{\"start_date\": \"2026-01-02\"}")
                .header("Min-Assignment-Revision", "3").header("Prefer", "wait=" + WAIT.toSeconds()));
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(reply.status()).as(reply.toString()).isEqualTo(409);
        assertThat(reply.code()).isEqualTo("PROJECTION_BEHIND");
        assertThat(took).as("the whole wait was waited").isGreaterThanOrEqualTo(WAIT);
        assertThat(jdbc.queryForObject("SELECT row_version FROM placements WHERE id = ?", Long.class, placement)).isEqualTo(1L);
    }
}
