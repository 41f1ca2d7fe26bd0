package org.caseassignments.api.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.api.audit.AuditEntry.Authority;
import org.caseassignments.api.audit.AuditEntry.Outcome;
import org.caseassignments.api.audit.AuditEntry.Subject;
import org.caseassignments.api.security.Caller;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Backends;
import org.caseassignments.api.testsupport.OpenTransaction;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The refusal queue's reserved share on its own: with the writer held at the audit table (locked by another
 * transaction, so nothing leaves the queue), ordinary refusals of many subjects (no budget is reached) fill the
 * shared part and overflow it; refusals of another jurisdiction's records offered after that are still kept
 * and stored once the table is free.
 */
@ApiIntegrationTest
class RefusalReserveIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    private static final int QUEUE = 10;
    private static final int RESERVE_PERCENT = 20;
    private static final int RESERVED = QUEUE * RESERVE_PERCENT / 100;
    private static final int SHARED = QUEUE - RESERVED;
    private static final int OVERFLOW = 5;

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("api.audit.refusal-queue-capacity", () -> String.valueOf(QUEUE));
        registry.add("api.audit.cross-jurisdiction-reserve", () -> String.valueOf(RESERVE_PERCENT));
        registry.add("api.audit.refusal-batch-size", () -> "4");
        // each dropped record is one WARN line by design
        registry.add("logging.level." + RefusalWriter.FALLBACK_LOG, () -> "ERROR");
    }

    @Autowired
    RefusalWriter writer;

    @Autowired
    MeterRegistry meters;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final Backends backends = new Backends(jdbc);

    @Test
    void shouldStoreCrossJurisdictionRefusalsOfferedAfterOrdinaryRefusalsFilledTheQueue() {
        double droppedBefore = droppedFull();
        try (OpenTransaction lock = OpenTransaction.begin(DB.dataSource(),
                other -> other.execute("LOCK TABLE audit_records IN EXCLUSIVE MODE")).awaitWork()) {
            // Given: the writer's batch waits for the table with one ordinary refusal
            writer.offer(ordinary("ordinary-0"));
            backends.awaitBlockedBy(lock.pid());
            // and ordinary refusals fill the shared part of the queue, and more of them are dropped
            for (int i = 1; i <= SHARED + OVERFLOW; i++) {
                writer.offer(ordinary("ordinary-" + i));
            }
            assertThat(droppedFull() - droppedBefore).as("the shared part is full").isEqualTo(OVERFLOW);

            // When: refusals of another jurisdiction's records come
            for (int i = 1; i <= RESERVED; i++) {
                writer.offer(crossJurisdiction("prober-" + i));
            }

            // Then: none is dropped, and all are stored once the writer can write
            assertThat(droppedFull() - droppedBefore).as("cross-jurisdiction refusals dropped").isEqualTo(OVERFLOW);
            lock.commit();
        }
        await().atMost(Duration.ofSeconds(30)).alias("the kept refusals stored")
                .until(() -> stored("prober-%") == RESERVED && stored("ordinary-%") == 1 + SHARED);
    }

    /** A refusal some ruleset decided: of the caller's own jurisdiction. */
    private static AuditEntry ordinary(String sub) {
        return refusal(sub, "v1");
    }

    /** A 403 decided before any ruleset ran: a probe of another jurisdiction's record. */
    private static AuditEntry crossJurisdiction(String sub) {
        AuditEntry entry = refusal(sub, null);
        assertThat(entry.crossJurisdiction()).isTrue();
        return entry;
    }

    private static AuditEntry refusal(String sub, String rulesetVersion) {
        Caller caller = new Caller(sub, List.of("caseworker"), "georgia", List.of());
        Subject placement = new Subject("placement", UUID.randomUUID(), null);
        return rulesetVersion == null
                ? AuditEntry.crossJurisdiction(Instant.now(), null, caller, AuditAction.UPDATE, placement)
                : AuditEntry.refused(Instant.now(), null, caller, AuditAction.UPDATE, placement, Outcome.refused(403, null),
                        new Authority("georgia", rulesetVersion, null, null), null, null);
    }

    private long stored(String subPattern) {
        Long count = jdbc.queryForObject("SELECT count(*) FROM audit_records WHERE caller_sub LIKE ?", Long.class,
                subPattern);
        return count == null ? 0 : count;
    }

    private double droppedFull() {
        return meters.get(RefusalWriter.DROPPED_METRIC).tag("reason", "queue_full").counter().count();
    }
}
