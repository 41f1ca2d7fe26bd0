package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

class DatabaseMetersIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldReportTheNotifyQueueAndARebuildsShadowTableWhileItIsThere() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new DatabaseMeters(jdbc).bindTo(registry);

        assertThat(registry.get(DatabaseMeters.NOTIFY_QUEUE_METRIC).gauge().value()).isBetween(0.0, 1.0);
        assertThat(registry.get(DatabaseMeters.SHADOW_METRIC).gauge().value()).isZero();

        // When a rebuild's shadow table is left behind
        jdbc.execute("CREATE TABLE case_assignments_rebuild (LIKE case_assignments)");
        try {
            // Then the next reading, at most 5 s later, says so
            await().atMost(Duration.ofSeconds(15)).until(() ->
                    registry.get(DatabaseMeters.SHADOW_METRIC).gauge().value() == 1.0);
        } finally {
            jdbc.execute("DROP TABLE case_assignments_rebuild");
        }
    }
}
