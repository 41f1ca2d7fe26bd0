package org.caseassignments.projector.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.stream.Stream;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.Ingested;
import org.caseassignments.ingest.SourceRecord;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.DrainWorkload;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.openjdk.jol.info.GraphLayout;

/**
 * The byte budget counts what a pending batch keeps on the heap ({@link PendingAssignments#heldBytes}): events decoded
 * from their records as the projector decodes them, held by a task's pending batch, measured by walking the object
 * graph (JOL) before and after.
 */
class PendingBytesCountTests {

    private static final String TOPIC = "case.events";
    private static final AvroEventCodec CODEC = AvroEventCodec.singleObject();
    private static final CaseEventReader READER = new CaseEventReader(CODEC);
    /** What a task's pending batch keeps once it held an event, however many: not what the budget is for. */
    private static final long BOOKKEEPING = 1024;

    /** What the headers of each record are. */
    enum HeaderShape {
        /** None, as in the drain benchmark. */
        NONE,
        /** A W3C trace context, as a traced upstream sends it (decision 34). */
        TRACEPARENT,
        /** Hundreds of one-byte headers: a record that costs its producer little and the projector much. */
        MANY_TINY,
        /** Thousands of headers with a one-byte key and no value. */
        MANY_WITHOUT_VALUES
    }

    static Stream<Arguments> shapes() {
        return Stream.of(
                Arguments.of("one event per case, no headers", 8_000, 1, 1, HeaderShape.NONE, "worker-7"),
                Arguments.of("many revisions per case, no headers", 200, 100, 1, HeaderShape.NONE, "worker-7"),
                Arguments.of("each event delivered twice", 200, 50, 2, HeaderShape.NONE, "worker-7"),
                Arguments.of("one event per case, a traceparent", 8_000, 1, 1, HeaderShape.TRACEPARENT, "worker-7"),
                Arguments.of("many revisions per case, a traceparent", 200, 100, 1, HeaderShape.TRACEPARENT, "worker-7"),
                Arguments.of("many revisions per case, 300 one-byte headers", 10, 100, 1, HeaderShape.MANY_TINY, "w"),
                Arguments.of("3,000 headers without a value", 20, 5, 1, HeaderShape.MANY_WITHOUT_VALUES, "w"),
                Arguments.of("long subjects outside Latin-1", 2_000, 5, 1, HeaderShape.TRACEPARENT,
                        "travailleur-é-ž-".repeat(12)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void shouldCountAtLeastTheHeapThePendingEventsKeepAndAtMostAQuarterMore(String shape, int cases, int revisions,
                                                                          int deliveries, HeaderShape headers,
                                                                          String worker) {
        // Given a task's pending batch that never writes, and events decoded from their records as the projector
        // decodes them
        PendingAssignments pending = pendingBatch(batch -> {
            throw new AssertionError("wrote " + batch.events() + " events");
        });
        long empty = GraphLayout.parseInstance(pending).totalSize();

        // When it takes them
        take(pending, cases, revisions, deliveries, headers, worker);

        // Then what its byte budget counts is no less than what the batch keeps on the heap (but for the task's own
        // bookkeeping, a few hundred bytes whatever it holds), and not much more
        long kept = GraphLayout.parseInstance(pending).totalSize() - empty;
        long counted = pending.heldBytes();
        assertThat(counted).as("bytes counted for %s, against %,d bytes on the heap", shape, kept)
                .isGreaterThanOrEqualTo(kept - BOOKKEEPING)
                .isLessThanOrEqualTo(kept + kept / 4);
    }

    @Test
    void shouldCountWhatABatchKeepsAfterALargerOneWasWritten() {
        // Given a task's pending batch that wrote a batch of 200 cases × 300 revisions
        PendingAssignments pending = pendingBatch(batch -> List.of());
        long empty = GraphLayout.parseInstance(pending).totalSize();
        take(pending, 200, 300, 1, HeaderShape.NONE, "worker-");
        pending.writeNow(System.currentTimeMillis());

        // When it takes 20 cases × 10 revisions
        take(pending, 20, 10, 1, HeaderShape.NONE, "worker-");

        // Then what it counts is no less than what it keeps on the heap
        long kept = GraphLayout.parseInstance(pending).totalSize() - empty;
        assertThat(pending.heldBytes()).as("bytes counted against %,d bytes on the heap", kept)
                .isGreaterThanOrEqualTo(kept - BOOKKEEPING);
    }

    /** Events of {@code cases} new cases, revisions 1 to {@code revisions} round by round, each sent {@code deliveries} times. */
    private static void take(PendingAssignments pending, int cases, int revisions, int deliveries, HeaderShape headers,
                             String worker) {
        List<UUID> ids = DrainWorkload.caseIds(new Random(), cases);
        long offset = 0;
        for (int r = 1; r <= revisions; r++) {
            for (UUID id : ids) {
                SpecificRecord event = CaseEvents.changed(id, r).worker(worker + r).supervisor("supervisor-" + r % 7)
                        .build();
                for (int d = 0; d < deliveries; d++) {
                    pending.add(decoded(event, id, headers, offset++));
                }
            }
        }
    }

    /** A task's pending batch whose rules never write on their own: only {@code writeNow} does, through {@code flusher}. */
    private static PendingAssignments pendingBatch(PendingAssignments.Flusher flusher) {
        MockProcessorContext<Void, Void> context = new MockProcessorContext<>();
        context.setCurrentSystemTimeMs(System.currentTimeMillis());
        PendingAssignments.Pacing pacing = new PendingAssignments.Pacing(Duration.ofDays(1), Duration.ZERO,
                Duration.ofDays(1), Integer.MAX_VALUE, Duration.ofDays(1), Long.MAX_VALUE, Duration.ofDays(1),
                Duration.ofDays(1));
        UncommittedWork work = new UncommittedWork(Clock.systemUTC(), new SimpleMeterRegistry(), Duration.ofMinutes(2));
        PendingAssignments pending = PendingAssignments.builder(flusher, work, pacing, PendingAssignments.Backlog.UNKNOWN)
                .build();
        pending.init(context.getStateStoreContext(), pending);
        pending.attach(context, refused -> {
            throw new AssertionError("refused " + refused);
        });
        return pending;
    }

    /** An accepted event as the projector makes it from a record its consumer read. */
    private static PendingAssignments.Event decoded(SpecificRecord event, UUID caseId, HeaderShape shape, long offset) {
        byte[] key = caseId.toString().getBytes(StandardCharsets.UTF_8);
        byte[] value = CODEC.encode(TOPIC, event, false);
        // the copy Kafka Streams' record makes of the headers its consumer read, which is what a pending event keeps
        RecordHeaders headers = new RecordHeaders((Iterable<Header>) new RecordHeaders(headers(shape)));
        Ingested ingested = READER.read(key, value, headers);
        Ingested.Accepted accepted = (Ingested.Accepted) ingested;
        return new PendingAssignments.Event(accepted.update(), accepted.occurredAt(),
                new SourceRecord(TOPIC, 0, offset, 1_700_000_000_000L + offset, key, value, headers));
    }

    /** Headers as a consumer reads them: views of the fetched bytes until their key or value is asked for. */
    private static Header[] headers(HeaderShape shape) {
        return switch (shape) {
            case NONE -> new Header[0];
            case TRACEPARENT -> new Header[] {header("traceparent", "00-" + UUID.randomUUID().toString().replace("-", "")
                    + "-00f067aa0ba902b7-01")};
            case MANY_TINY -> many(300, "x");
            case MANY_WITHOUT_VALUES -> many(3_000, null);
        };
    }

    private static Header[] many(int count, String value) {
        Header[] headers = new Header[count];
        for (int i = 0; i < count; i++) {
            headers[i] = header("h", value);
        }
        return headers;
    }

    private static Header header(String key, String value) {
        return new RecordHeader(ByteBuffer.wrap(key.getBytes(StandardCharsets.UTF_8)),
                value == null ? null : ByteBuffer.wrap(value.getBytes(StandardCharsets.UTF_8)));
    }
}
