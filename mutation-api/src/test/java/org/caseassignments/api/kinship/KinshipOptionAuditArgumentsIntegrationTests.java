package org.caseassignments.api.kinship;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.caseassignments.api.http.IfMatch;
import org.caseassignments.api.idempotency.Idempotency;
import org.caseassignments.api.idempotency.IdempotentCreate;
import org.caseassignments.api.policy.PolicyDenied;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.requestid.RequestIds;
import org.caseassignments.api.security.Caller;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.write.GuardedCreate;
import org.caseassignments.api.write.GuardedUpdate;
import org.caseassignments.api.write.Locked;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.mock.web.MockHttpServletRequest;

/**
 * The request id and the trace of the event that set the assignment a write held reach its audit record as
 * parameters of the write, not through the thread's logging context (MDC): whatever else runs on the thread between
 * the hold and the record may rewrite that context, and the record still names the request and what it held.
 */
@ApiIntegrationTest
class KinshipOptionAuditArgumentsIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    static final String REASSIGNMENT_TRACE = "0af7651916cd43dd8448eb211c80319c";
    static final String OTHER_TRACE = "11111111111111111111111111111111";

    private static final Caller WORKER = new Caller("w-1", List.of("caseworker"), Cases.JURISDICTION, List.of());

    @Autowired
    GuardedUpdate updates;

    @Autowired
    GuardedCreate creates;

    @Autowired
    Idempotency idempotency;

    @Autowired
    KinshipOptions options;

    private final JdbcTemplate jdbc = DB.jdbc();

    @AfterEach
    void clearLogContext() {
        MDC.clear();
    }

    @Test
    void shouldRecordTheRequestAndTheHeldTraceWhenTheLogContextIsRewrittenAfterTheHold() {
        // Given a kinship option of a case whose assignment an event with a trace set
        UUID caseId = tracedCase(TRACE);
        UUID option = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(2).insert(jdbc);

        // When request req-held updates it, and something on its thread rewrites the log context after the hold
        MDC.put(RequestIds.MDC_KEY, "req-held");
        updates.run(WORKER, "req-held", ifMatch(option), rewritingLogContextAfterTheHold(option, () -> { }));

        // Then the record names the request and the trace of what the update held
        assertThat(onlyRecordOf(option)).containsEntry("outcome", "WRITTEN")
                .containsEntry("request_id", "req-held").containsEntry("assignment_trace_id", TRACE);
    }

    @Test
    void shouldRecordTheRequestAndTheReassignmentsTraceInA409WhenTheLogContextIsRewrittenAfterTheHold() {
        // Given a kinship option of a case whose assignment a traced event changes after the update was authorized
        UUID caseId = tracedCase(TRACE);
        UUID option = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(2).insert(jdbc);
        Runnable reassignment = () -> new AssignmentWriter(jdbc).apply(List.of(
                AssignmentUpdate.changed(caseId, "w-2", "s-1", 3).withTraceId(REASSIGNMENT_TRACE)));

        // When request req-held updates it, and something on its thread rewrites the log context after the hold
        MDC.put(RequestIds.MDC_KEY, "req-held");
        assertThatThrownBy(() -> updates.run(WORKER, "req-held", ifMatch(option),
                rewritingLogContextAfterTheHold(option, reassignment)))
                .isInstanceOfSatisfying(ApiProblem.class, problem -> assertThat(problem.code().name())
                        .isEqualTo("CONCURRENT_MODIFICATION"));

        // Then the refusal's record names the request and the trace of the reassignment the update held
        assertThat(awaitOnlyRecordOf(option)).containsEntry("status", 409)
                .containsEntry("request_id", "req-held").containsEntry("assignment_trace_id", REASSIGNMENT_TRACE);
    }

    @Test
    void shouldRecordTheRequestAndTheHeldTraceOfACreateWhenTheLogContextIsRewrittenAfterTheHold() {
        // Given a case whose assignment an event with a trace set
        UUID caseId = tracedCase(TRACE);
        UUID id = UUID.randomUUID();

        // When request req-held creates a kinship option in it, and something on its thread rewrites the log context
        // after the hold, as the row is inserted
        MDC.put(RequestIds.MDC_KEY, "req-held");
        creates.<KinshipOption, KinshipOption>run(WORKER, "req-held", caseId, id, withoutKey(),
                assignment -> KinshipOption.createdIn(assignment, false),
                held -> {
                    KinshipOption created = options.insert(id, held, ANN, WORKER.sub());
                    rewriteLogContext();
                    return created;
                },
                created -> ResponseEntity.status(201).body(created));

        // Then the record names the request and the trace of what the create held
        assertThat(onlyRecordOf(id)).containsEntry("outcome", "WRITTEN").containsEntry("action", "create")
                .containsEntry("request_id", "req-held").containsEntry("assignment_trace_id", TRACE);
    }

    @Test
    void shouldRecordTheRequestAndTheReassignmentsTraceInA409CreateWhenTheLogContextIsRewrittenAfterTheHold() {
        // Given a case whose assignment a traced event changes after the create was authorized
        UUID caseId = tracedCase(TRACE);
        AtomicInteger seen = new AtomicInteger();

        // When request req-held creates a kinship option in it, and something on its thread rewrites the log context
        // after the hold, as the held assignment is compared
        MDC.put(RequestIds.MDC_KEY, "req-held");
        assertThatThrownBy(() -> creates.<KinshipOption, KinshipOption>run(WORKER, "req-held", caseId, UUID.randomUUID(), withoutKey(),
                assignment -> {
                    if (seen.incrementAndGet() == 1) {
                        // what is authorized is read; then the case is reassigned, before the hold
                        new AssignmentWriter(jdbc).apply(List.of(
                                AssignmentUpdate.changed(caseId, "w-2", "s-1", 3).withTraceId(REASSIGNMENT_TRACE)));
                    } else {
                        rewriteLogContext();
                    }
                    return KinshipOption.createdIn(assignment, false);
                },
                assignment -> {
                    throw new AssertionError("a create whose case was reassigned under it inserts nothing");
                },
                created -> ResponseEntity.status(201).body(created)))
                .isInstanceOfSatisfying(ApiProblem.class, problem -> assertThat(problem.code().name())
                        .isEqualTo("CONCURRENT_MODIFICATION"));

        // Then the refusal's record names the request and the trace of the reassignment the create held
        Map<String, Object> refusal = await().atMost(Duration.ofSeconds(20))
                .alias("the refusal writer to store the record")
                .until(() -> jdbc.queryForList("SELECT * FROM audit_records WHERE case_id = ? AND action = 'create'",
                        caseId), found -> !found.isEmpty()).get(0);
        assertThat(refusal).containsEntry("status", 409).containsEntry("request_id", "req-held")
                .containsEntry("assignment_trace_id", REASSIGNMENT_TRACE);
    }

    @Test
    void shouldLogNoAssignmentTraceAfterAWriteWhoseCaseMovedToAnotherJurisdictionUnderIt() {
        // Given a kinship option of a case whose assignment carries no trace, moved to another jurisdiction by a
        // traced event after the update was authorized
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID option = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        Runnable move = () -> new AssignmentWriter(jdbc).apply(List.of(AssignmentUpdate.changed(caseId, "w-1", "s-1", 2)
                .withJurisdiction("texas").withTraceId(REASSIGNMENT_TRACE)));
        KinshipOptionUpdate rename = KinshipOptionUpdate.update(options, option,
                new UpdateKinshipOptionRequest(Optional.of("Ann"), null, null));
        KinshipOptionUpdate movedUnderIt = new KinshipOptionUpdate(options, option) {
            @Override
            public Optional<Locked<KinshipOption>> lockedRead() {
                move.run();
                return rename.lockedRead();
            }

            @Override
            public KinshipOption afterImage(KinshipOption row) {
                return rename.afterImage(row);
            }

            @Override
            public KinshipOption write(Locked<KinshipOption> locked) {
                return rename.write(locked);
            }
        };

        // When request req-moved updates it, its hold reading the moving event's trace
        MDC.put(RequestIds.MDC_KEY, "req-moved");
        assertThatThrownBy(() -> updates.run(WORKER, "req-moved", ifMatch(option), movedUnderIt))
                .isInstanceOf(PolicyDenied.class);

        // Then the request's log lines from then on name no assignment trace, as none was the request's to name
        assertThat(MDC.get(RequestIds.ASSIGNMENT_TRACE_ID_MDC_KEY)).isNull();
        assertThat(MDC.get(RequestIds.MDC_KEY)).isEqualTo("req-moved");
    }

    private static final CreateKinshipOptionRequest ANN = new CreateKinshipOptionRequest("Ann", "aunt", false);

    /** Another request's id and another trace, put in the thread's log context. */
    private static void rewriteLogContext() {
        MDC.put(RequestIds.MDC_KEY, "another-request");
        MDC.put(RequestIds.ASSIGNMENT_TRACE_ID_MDC_KEY, OTHER_TRACE);
    }

    /** A create sent without an {@code Idempotency-Key}. */
    private IdempotentCreate<KinshipOption> withoutKey() {
        return idempotency.begin(WORKER, new MockHttpServletRequest("POST", "/cases/x/kinship-options"), ANN,
                KinshipOption.class, replayed -> Optional.empty());
    }

    /**
     * An update of the option's name whose locked read runs {@code beforeTheHold} first, then, once it holds the case,
     * puts another request's id and another trace in the thread's log context.
     */
    private KinshipOptionUpdate rewritingLogContextAfterTheHold(UUID option, Runnable beforeTheHold) {
        KinshipOptionUpdate rename = KinshipOptionUpdate.update(options, option,
                new UpdateKinshipOptionRequest(Optional.of("Ann"), null, null));
        return new KinshipOptionUpdate(options, option) {
            @Override
            public Optional<Locked<KinshipOption>> lockedRead() {
                beforeTheHold.run();
                Optional<Locked<KinshipOption>> locked = rename.lockedRead();
                MDC.put(RequestIds.MDC_KEY, "another-request");
                MDC.put(RequestIds.ASSIGNMENT_TRACE_ID_MDC_KEY, OTHER_TRACE);
                return locked;
            }

            @Override
            public KinshipOption afterImage(KinshipOption row) {
                return rename.afterImage(row);
            }

            @Override
            public KinshipOption write(Locked<KinshipOption> locked) {
                return rename.write(locked);
            }
        };
    }

    private static IfMatch ifMatch(UUID option) {
        return IfMatch.parse(List.of(TestETags.kinshipOption(option, 1)));
    }

    /** A case of the default jurisdiction assigned to w-1 and s-1, at revision 2, by an event with this trace. */
    private UUID tracedCase(String traceId) {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        new AssignmentWriter(jdbc).apply(List.of(AssignmentUpdate.changed(caseId, "w-1", "s-1", 2).withTraceId(traceId)));
        return caseId;
    }

    private List<Map<String, Object>> recordsOf(UUID resource) {
        return jdbc.queryForList("SELECT * FROM audit_records WHERE resource_id = ? ORDER BY recorded_at, id", resource);
    }

    private Map<String, Object> onlyRecordOf(UUID resource) {
        List<Map<String, Object>> records = recordsOf(resource);
        assertThat(records).hasSize(1);
        return records.get(0);
    }

    private Map<String, Object> awaitOnlyRecordOf(UUID resource) {
        List<Map<String, Object>> records = await().atMost(Duration.ofSeconds(20))
                .alias("the refusal writer to store the record")
                .until(() -> recordsOf(resource), found -> !found.isEmpty());
        assertThat(records).hasSize(1);
        return records.get(0);
    }
}
