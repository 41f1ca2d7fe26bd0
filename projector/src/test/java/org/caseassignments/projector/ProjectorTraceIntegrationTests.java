package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.caseassignments.store.BatchWriter;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * The upstream's W3C trace context on an event reaches what the event set: the trace id of a valid
 * {@code traceparent} header is stored with the assignment its revision set and with that revision's history entry,
 * and names the event on the projector's log line about it; a malformed header is ignored and the event applied.
 */
class ProjectorTraceIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();
    private static final String GROUP = ProjectorInstance.uniqueApplicationId();
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String CREATED_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String CHANGED_TRACE = "0af7651916cd43dd8448eb211c80319c";
    private static final String CONFLICT_TRACE = "5c6dd2b5e1a7463aa1b2c3d4e5f60718";
    private static final String FOLLOWING_TRACE = "9e107d9d372bb6826bd81d3542a419d6";

    private static ProjectorInstance projector;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final ListAppender<ILoggingEvent> batchWriterLines = new ListAppender<>();

    @BeforeAll
    static void startProjector() {
        projector = ProjectorInstance.start(ProjectorInstance.properties(DB, TOPICS, GROUP));
    }

    @AfterAll
    static void stopProjector() {
        projector.close();
    }

    @BeforeEach
    void captureBatchWriterLines() {
        batchWriterLines.start();
        ((Logger) LoggerFactory.getLogger(BatchWriter.class)).addAppender(batchWriterLines);
    }

    @AfterEach
    void stopCapturing() {
        ((Logger) LoggerFactory.getLogger(BatchWriter.class)).detachAppender(batchWriterLines);
    }

    @Test
    void shouldStoreTheEventsTraceIdWithTheAssignmentItSetAndInItsHistoryEntry() {
        // Given a case created and reassigned by events that carry the upstream's trace context
        UUID caseId = UUID.randomUUID();
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publish(TOPICS.events(), CaseEvents.created(caseId).worker("w-0").supervisor("s-0")
                    .jurisdiction("georgia").build(), Map.of("traceparent", traceparent(CREATED_TRACE)));
            publisher.publish(TOPICS.events(), CaseEvents.changed(caseId, 1).worker("w-1").supervisor("s-1").build(),
                    Map.of("traceparent", traceparent(CHANGED_TRACE)));
        }

        // When the projector has applied them, then the row names the event that set it, and each entry its own
        await().atMost(TIMEOUT).until(() -> revision(caseId) == 1L);
        assertThat(jdbc.queryForObject("SELECT trace_id FROM case_assignments WHERE case_id = ?", String.class, caseId))
                .isEqualTo(CHANGED_TRACE);
        assertThat(historyTraces(caseId)).containsExactlyInAnyOrderEntriesOf(Map.of(0L, CREATED_TRACE, 1L, CHANGED_TRACE));
    }

    @Test
    void shouldApplyAnEventWithAMalformedTraceparentWithoutATraceId() {
        // Given events whose traceparent headers are not version-00 W3C trace contexts
        UUID created = UUID.randomUUID();
        UUID changed = UUID.randomUUID();
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publish(TOPICS.events(), CaseEvents.created(created).worker("w-0").supervisor("s-0").build(),
                    Map.of("traceparent", "00-" + CREATED_TRACE.toUpperCase() + "-00f067aa0ba902b7-01"));
            publisher.publish(TOPICS.events(), CaseEvents.changed(changed, 4).worker("w-4").supervisor("s-4").build(),
                    Map.of("traceparent", "not a trace context at all"));
        }

        // Then both are applied as any event, with no trace id, and nothing is dead-lettered
        await().atMost(TIMEOUT).until(() -> revision(created) == 0L && revision(changed) == 4L);
        assertThat(jdbc.queryForList("SELECT trace_id FROM case_assignments WHERE case_id IN (?, ?)", String.class,
                created, changed)).containsExactly(null, null);
        assertThat(historyTraces(created)).containsExactly(Map.entry(0L, "none"));
        assertThat(historyTraces(changed)).containsExactly(Map.entry(4L, "none"));
        // every reason's counter is there from the start, at 0; none moved
        assertThat(projector.bean(io.micrometer.core.instrument.MeterRegistry.class)
                .find("case_assignments.events.dead_lettered").counters())
                .isNotEmpty().allSatisfy(counter -> assertThat(counter.count()).isZero());
    }

    /**
     * A header PostgreSQL could not store (a NUL byte) or far longer than a trace context is the upstream's bad input
     * beside a valid event: the event is applied as if it had none, nothing is dead-lettered, and the events after it
     * on the partition are applied with their traces.
     */
    @Test
    void shouldApplyEventsWhoseTraceparentHasANulByteOrIsFarTooLongWithoutATraceIdAndKeepApplying() {
        // Given an event whose traceparent has a NUL byte in its trace id (55 bytes, the length of a valid one),
        // one whose traceparent is a valid one followed by 100,000 more characters, and then a valid one
        UUID withNul = UUID.randomUUID();
        UUID overLong = UUID.randomUUID();
        UUID following = UUID.randomUUID();
        String nulTraceId = CHANGED_TRACE.substring(0, 16) + '\u0000' + CHANGED_TRACE.substring(17);
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publish(TOPICS.events(), CaseEvents.created(withNul).worker("w-nul").supervisor("s-nul")
                    .jurisdiction("georgia").build(), Map.of("traceparent", traceparent(nulTraceId)));
            publisher.publish(TOPICS.events(), CaseEvents.changed(overLong, 3).worker("w-long").supervisor("s-long")
                    .jurisdiction("texas").build(),
                    Map.of("traceparent", traceparent(CHANGED_TRACE) + "-" + "0".repeat(100_000)));
            publisher.publish(TOPICS.events(), CaseEvents.changed(following, 5).worker("w-next").supervisor("s-next")
                    .jurisdiction("georgia").build(), Map.of("traceparent", traceparent(FOLLOWING_TRACE)));
        }

        // When the projector has applied the last (one partition: the two before it came first)
        await().atMost(TIMEOUT).until(() -> revision(following) == 5L);

        // Then each row is its event's, with no trace id for the bad headers and the valid one's after them
        assertThat(rows(withNul)).containsExactly(Map.of("assignment_revision", 0L, "assigned_worker_sub", "w-nul",
                "supervisor_sub", "s-nul", "jurisdiction", "georgia", "trace_id", "none"));
        assertThat(rows(overLong)).containsExactly(Map.of("assignment_revision", 3L, "assigned_worker_sub", "w-long",
                "supervisor_sub", "s-long", "jurisdiction", "texas", "trace_id", "none"));
        assertThat(rows(following)).containsExactly(Map.of("assignment_revision", 5L, "assigned_worker_sub", "w-next",
                "supervisor_sub", "s-next", "jurisdiction", "georgia", "trace_id", FOLLOWING_TRACE));
        assertThat(historyTraces(withNul)).containsExactly(Map.entry(0L, "none"));
        assertThat(historyTraces(overLong)).containsExactly(Map.entry(3L, "none"));
        // every reason's counter is there from the start, at 0; none moved
        assertThat(projector.bean(io.micrometer.core.instrument.MeterRegistry.class)
                .find("case_assignments.events.dead_lettered").counters())
                .isNotEmpty().allSatisfy(counter -> assertThat(counter.count()).isZero());
    }

    @Test
    void shouldNameTheEventsTraceOnTheLineAboutItWhenItIsDropped() {
        // Given a case at revision 2
        UUID caseId = UUID.randomUUID();
        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publish(TOPICS.events(), CaseEvents.changed(caseId, 2).worker("w-first").supervisor("s").build(),
                    Map.of("traceparent", traceparent(CHANGED_TRACE)));
            await().atMost(TIMEOUT).until(() -> revision(caseId) == 2L);

            // When another event claims revision 2 with another assignment, carrying its own trace
            publisher.publish(TOPICS.events(), CaseEvents.changed(caseId, 2).worker("w-second").supervisor("s").build(),
                    Map.of("traceparent", traceparent(CONFLICT_TRACE)));
        }

        // Then the line that says it was dropped names its trace, as a structured field, and the row keeps the first
        await().atMost(TIMEOUT).untilAsserted(() -> assertThat(List.copyOf(batchWriterLines.list)).anySatisfy(line -> {
            assertThat(line.getFormattedMessage()).contains("Case " + caseId).contains("w-second");
            assertThat(line.getMDCPropertyMap()).containsEntry("trace_id", CONFLICT_TRACE);
        }));
        assertThat(jdbc.queryForObject("SELECT trace_id FROM case_assignments WHERE case_id = ?", String.class, caseId))
                .isEqualTo(CHANGED_TRACE);
    }

    private static String traceparent(String traceId) {
        return "00-" + traceId + "-00f067aa0ba902b7-01";
    }

    /** The case's projection row (none or one) as the event set it; {@code trace_id} "none" when it has none. */
    private List<Map<String, Object>> rows(UUID caseId) {
        return jdbc.queryForList("""
                SELECT assignment_revision, assigned_worker_sub, supervisor_sub, jurisdiction,
                       coalesce(trace_id, 'none') AS trace_id
                  FROM case_assignments WHERE case_id = ?""", caseId);
    }

    /** The case's revision; below the placeholder's (−1) while it has no row. */
    private long revision(UUID caseId) {
        List<Long> revisions = jdbc.queryForList("SELECT assignment_revision FROM case_assignments WHERE case_id = ?",
                Long.class, caseId);
        return revisions.isEmpty() ? -2 : revisions.get(0);
    }

    private Map<Long, String> historyTraces(UUID caseId) {
        Map<Long, String> traces = new HashMap<>();
        jdbc.query("SELECT assignment_revision, coalesce(trace_id, 'none') FROM case_assignment_history WHERE case_id = ?",
                rs -> {
                    traces.put(rs.getLong(1), rs.getString(2));
                }, caseId);
        return traces;
    }
}
