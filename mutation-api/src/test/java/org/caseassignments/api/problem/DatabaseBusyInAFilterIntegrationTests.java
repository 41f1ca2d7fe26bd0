package org.caseassignments.api.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.UUID;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.DatabaseBusyReplies;
import org.caseassignments.api.testsupport.PoolSessions;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A filter that reads the database before the handlers and lets the failure through does not reach
 * {@link ErrorHandling}: the outermost filter ({@link UnhandledFailureFilter}) answers it as a handler's failure is
 * answered, 503 {@code DATABASE_BUSY} when the database refused (every pooled connection held past the pool's
 * timeout, against the real PostgreSQL, over HTTP), 500 {@code INTERNAL_ERROR} for anything else, each logged once
 * and never by the container. The filter is this test's own, behind the application's first ones.
 *
 * <p>Regression guards, which passed before the container's own log line was kept out and the 500's detail stopped
 * claiming the request changed nothing: {@code shouldAnswer503DatabaseBusyWhenAFilterMeetsTheDatabasesRefusal} and
 * {@code shouldAnswer500InternalErrorWithoutInternalsWhenAFilterFailsForAnythingElse} as first written; their
 * assertions on the log and the detail are the ones that failed first.
 */
@ApiIntegrationTest
@ExtendWith(OutputCaptureExtension.class)
@Import(DatabaseBusyInAFilterIntegrationTests.FilterReadingTheDatabase.class)
class DatabaseBusyInAFilterIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    /** The request header that makes the test's filter read the database. */
    private static final String READ_IN_FILTER = "X-Test-Read-In-Filter";
    /** The request header that makes the test's filter fail on its own, without the database. */
    private static final String FAIL_IN_FILTER = "X-Test-Fail-In-Filter";

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "2");
        registry.add("spring.datasource.hikari.connection-timeout", () -> "400");
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class FilterReadingTheDatabase {

        @Bean
        FilterRegistrationBean<OncePerRequestFilter> filterReadingTheDatabase(DataSource pool) {
            JdbcTemplate jdbc = new JdbcTemplate(pool);
            FilterRegistrationBean<OncePerRequestFilter> registration = new FilterRegistrationBean<>(
                    new OncePerRequestFilter() {
                        @Override
                        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response,
                                                        FilterChain chain) throws ServletException, IOException {
                            if (request.getHeader(READ_IN_FILTER) != null) {
                                jdbc.queryForObject("SELECT count(*) FROM foster_homes", Long.class);
                            }
                            if (request.getHeader(FAIL_IN_FILTER) != null) {
                                throw new IllegalStateException("the test filter's own failure");
                            }
                            chain.doFilter(request, response);
                        }
                    });
            registration.setDispatcherTypes(DispatcherType.REQUEST);
            return registration;
        }
    }

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    @Autowired
    DataSource pool;

    private final String admin = TestTokens.admin("a-1").token();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldAnswer503DatabaseBusyWhenAFilterMeetsTheDatabasesRefusal(CapturedOutput output) throws Exception {
        // Given every connection of the API's pool held
        UUID home = Rows.fosterHome().insert(DB.jdbc());
        DatabaseBusyReplies busy = DatabaseBusyReplies.expect(meters, "pool-timeout");
        try (PoolSessions.Held held = PoolSessions.holdEvery(pool)) {
            // When a request meets the refusal in a filter, before any handler
            Reply reply = api.send(ApiClient.request("GET", "/foster-homes/" + home).token(admin)
                    .header(READ_IN_FILTER, "1"));

            // Then the error page answers what a handler meeting it would
            busy.assertAnswered(reply, output);
            assertThat(reply.json().path("instance").asString()).isEqualTo("/foster-homes/" + home);
            assertThat(reply.json().path("request_id").asString()).isNotBlank();
        }
    }

    @Test
    void shouldAnswer500InternalErrorWithoutInternalsWhenAFilterFailsForAnythingElse(CapturedOutput output) {
        Reply reply = api.send(ApiClient.request("GET", "/foster-homes/" + UUID.randomUUID()).token(admin)
                .header(FAIL_IN_FILTER, "1"));

        assertThat(reply.status()).as(reply.toString()).isEqualTo(500);
        assertThat(reply.code()).isEqualTo("INTERNAL_ERROR");
        assertThat(reply.header("Retry-After")).isEmpty();
        assertThat(reply.body()).doesNotContain("IllegalStateException", "test filter");
        assertThat(reply.json().path("detail").asString()).as("a filter may fail after the handler wrote")
                .doesNotContain("changed nothing").contains("report the request id");
        assertThat(output.getAll().lines().filter(line -> line.contains("Unhandled failure")).toList())
                .as("logged once").hasSize(1);
        assertThat(output.getAll()).as("not logged again by the container").doesNotContain("Servlet.service()");
    }
}
