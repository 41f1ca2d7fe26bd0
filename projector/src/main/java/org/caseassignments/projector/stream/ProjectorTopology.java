package org.caseassignments.projector.stream;

import java.util.Map;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.Branched;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Produced;
import org.apache.kafka.streams.state.Stores;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.projector.sink.PendingAssignments;
import org.caseassignments.projector.sink.ProjectionWriter;
import org.caseassignments.schemas.topics.CaseTopics;
import org.caseassignments.schemas.topics.Topic;
import org.caseassignments.store.AssignmentUpdate;

/**
 * The projector's stream: input events to dead letters and, through a per-task buffer that Kafka
 * Streams flushes before each commit, to PostgreSQL; optionally also to the compacted projection topic.
 */
final class ProjectorTopology {

    /** Highest revision seen per case id, for the published projection. Changelogged, so it survives a restart. */
    static final String REVISIONS_STORE = "case-revisions";

    private static final String DEAD_LETTER = "route-dead-letter";
    private static final String UPDATE = "route-update";

    private final CaseTopics topics;
    private final CaseEventReader reader;
    private final IngestMetrics metrics;
    private final RegistryRetry registryRetry;
    private final PendingAssignments.Flusher flusher;
    private final ProjectionWriter.Pacing pacing;
    private final boolean publishAssignments;

    ProjectorTopology(CaseTopics topics, CaseEventReader reader, IngestMetrics metrics,
                      PendingAssignments.Flusher flusher, ProjectionWriter.Pacing pacing, boolean publishAssignments) {
        this(topics, reader, metrics, RegistryRetry.DEFAULT, flusher, pacing, publishAssignments);
    }

    ProjectorTopology(CaseTopics topics, CaseEventReader reader, IngestMetrics metrics, RegistryRetry registryRetry,
                      PendingAssignments.Flusher flusher, ProjectionWriter.Pacing pacing, boolean publishAssignments) {
        this.topics = topics;
        this.reader = reader;
        this.metrics = metrics;
        this.registryRetry = registryRetry;
        this.flusher = flusher;
        this.pacing = pacing;
        this.publishAssignments = publishAssignments;
    }

    void addTo(StreamsBuilder builder) {
        // 1. Every input topic as raw bytes: a bad record must reach the dead-letter topic byte for byte.
        KStream<byte[], byte[]> events = builder.stream(topics.eventTopicNames(),
                Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("case-events"));

        // 2. Decode and validate; an accepted event is re-keyed by its case id (the producer's key already is).
        Map<String, KStream<String, Decoded>> routes = events
                .process(() -> new DecodeProcessor(reader, metrics, registryRetry), Named.as("decode"))
                .split(Named.as("route-"))
                .branch((caseId, decoded) -> decoded instanceof Decoded.DeadLetter, Branched.as("dead-letter"))
                .defaultBranch(Branched.as("update"));

        // 3. Bad input to the dead-letter topic: original key, value and headers, plus the dlq.* headers.
        routes.get(DEAD_LETTER)
                .map((none, decoded) -> KeyValue.pair(((Decoded.DeadLetter) decoded).key(),
                        ((Decoded.DeadLetter) decoded).value()), Named.as("original-record"))
                .to(topics.deadLetter().name(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray())
                        .withName("dead-letters"));

        // 4. Accepted events into the task's pending batch, written to PostgreSQL before each commit.
        KStream<String, AssignmentUpdate> updates = routes.get(UPDATE)
                .mapValues(decoded -> ((Decoded.Update) decoded).update(), Named.as("update"));
        builder.addStateStore(PendingAssignments.builder(flusher));
        updates.process(() -> new ProjectionWriter(pacing), Named.as("projection-writer"), PendingAssignments.NAME);

        // 5. Optionally, only a revision higher than any seen for the case goes on, as the projection's own record.
        if (publishAssignments) {
            builder.addStateStore(Stores.keyValueStoreBuilder(
                    Stores.persistentKeyValueStore(REVISIONS_STORE), Serdes.String(), Serdes.Long()));
            Topic<String, SpecificRecord> assignments = topics.assignments();
            updates.process(() -> new MonotonicFilter(metrics), Named.as("monotonic-filter"), REVISIONS_STORE)
                    .to(assignments.name(), Produced.with(assignments.keySerde(), assignments.valueSerde())
                            .withName("case-assignments"));
        }
    }
}
