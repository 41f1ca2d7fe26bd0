package org.caseassignments.projector;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Two readings of the database that alerts need and no client meter gives: how full PostgreSQL's NOTIFY queue is
 * ({@code pg_notification_queue_usage()}: once full, every commit that notifies fails, the projector's among
 * them), and whether a rebuild's shadow table is there (a rebuild running, or one left half-done). Read at a
 * scrape, at most every {@link #REFRESH}, within {@link #TIMEOUT}; NaN when the database does not answer.
 */
@Component
class DatabaseMeters implements MeterBinder {

    static final String NOTIFY_QUEUE_METRIC = "case_assignments.database.notify_queue_usage";
    static final String SHADOW_METRIC = "case_assignments.rebuild.shadow_present";
    private static final Duration REFRESH = Duration.ofSeconds(5);
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    private static final Logger log = LoggerFactory.getLogger(DatabaseMeters.class);

    private static final String READ = """
            SELECT pg_notification_queue_usage() AS notify_queue_usage,
                   to_regclass('case_assignments_rebuild') IS NOT NULL AS shadow_present
            """;

    private record Reading(double notifyQueueUsage, double shadowPresent, Instant at) {
    }

    private final JdbcTemplate jdbc;
    private final AtomicReference<Reading> last = new AtomicReference<>(new Reading(Double.NaN, Double.NaN, Instant.EPOCH));

    DatabaseMeters(JdbcTemplate jdbc) {
        JdbcTemplate bounded = new JdbcTemplate(jdbc.getDataSource());
        bounded.setQueryTimeout((int) TIMEOUT.toSeconds());
        this.jdbc = bounded;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder(NOTIFY_QUEUE_METRIC, this, meters -> meters.reading().notifyQueueUsage())
                .description("The fraction of PostgreSQL's NOTIFY queue in use (0 to 1)").register(registry);
        Gauge.builder(SHADOW_METRIC, this, meters -> meters.reading().shadowPresent())
                .description("1 while a rebuild's shadow table case_assignments_rebuild exists, else 0").register(registry);
    }

    private Reading reading() {
        Reading before = last.get();
        Instant now = Instant.now();
        if (Duration.between(before.at(), now).compareTo(REFRESH) < 0) {
            return before;
        }
        Reading read;
        try {
            read = jdbc.queryForObject(READ, (rs, row) -> new Reading(rs.getDouble("notify_queue_usage"),
                    rs.getBoolean("shadow_present") ? 1 : 0, now));
        } catch (RuntimeException e) {
            log.debug("Cannot read the database's NOTIFY queue and shadow table: {}", e.toString());
            read = new Reading(Double.NaN, Double.NaN, now);
        }
        last.set(read);
        return read;
    }
}
