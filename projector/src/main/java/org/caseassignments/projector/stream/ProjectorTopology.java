package org.caseassignments.projector.stream;

import java.util.List;
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
import org.apache.kafka.streams.state.StoreBuilder;
import org.apache.kafka.streams.state.Stores;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.ingest.RegistryRetry;
import org.caseassignments.schemas.topics.CaseTopics;
import org.caseassignments.schemas.topics.Topic;

/**
 * The projector's stream: input events to dead letters and, through a per-task buffer that Kafka
 * Streams flushes before each commit, to PostgreSQL; optionally also to the compacted projection topic.
 */
final class ProjectorTopology {

    /** Highest revision seen per case id, for the published projection. Changelogged, so it survives a restart. */
    static final String REVISIONS_STORE = "case-revisions";
    /** The branches a decoded record takes, by kind. */
    static final String DEAD_LETTER = "dead-letter";
    static final String UPDATE = "update";

    private final CaseTopics topics;
    private final CaseEventReader reader;
    private final IngestMetrics metrics;
    private final RegistryRetry registryRetry;
    private final StoreBuilder<PendingAssignments> pending;
    private final boolean publishAssignments;

    /**
     * @param pending the task's pending batch ({@link PendingAssignments#builder}): what it writes through, and when
     */
    ProjectorTopology(CaseTopics topics, CaseEventReader reader, IngestMetrics metrics,
                      StoreBuilder<PendingAssignments> pending, boolean publishAssignments) {
        this(topics, reader, metrics, RegistryRetry.DEFAULT, pending, publishAssignments);
    }

    ProjectorTopology(CaseTopics topics, CaseEventReader reader, IngestMetrics metrics, RegistryRetry registryRetry,
                      StoreBuilder<PendingAssignments> pending, boolean publishAssignments) {
        this.topics = topics;
        this.reader = reader;
        this.metrics = metrics;
        this.registryRetry = registryRetry;
        this.pending = pending;
        this.publishAssignments = publishAssignments;
    }

    void addTo(StreamsBuilder builder) {
        // 1. Every input topic as raw bytes: a bad record must reach the dead-letter topic byte for byte.
        KStream<byte[], byte[]> events = builder.stream(topics.eventTopicNames(),
                Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("case-events"));

        // 2. Decode and validate. An accepted event goes into the task's pending batch, the store named
        //    for the step it stands for: written to PostgreSQL before each commit. Only dead letters (also
        //    those of events PostgreSQL refused, forwarded when the batch is written) and, when published,
        //    updates re-keyed by their case id (which the producer's key already is) go further down.
        builder.addStateStore(pending);
        KStream<String, Forwarded> decoded = events.process(() -> new DecodeProcessor(reader, metrics, registryRetry,
                publishAssignments, topics.maxMessageBytes()), Named.as("decode"), PendingAssignments.NAME);

        // 3. Each decoded record takes the named branch of its kind.
        Map<String, KStream<String, Forwarded>> routes = decoded.split(Named.as("route-"))
                .branch((none, value) -> value instanceof Forwarded.DeadLetter, Branched.as(DEAD_LETTER))
                .branch((none, value) -> value instanceof Forwarded.Update, Branched.as(UPDATE))
                .noDefaultBranch();

        // 4. Bad input to the dead-letter topic: original key, value and headers, plus the dlq.* headers
        //    (cut to the size limit when they no longer fit together).
        routes.get("route-" + DEAD_LETTER)
                .flatMap((none, value) -> value instanceof Forwarded.DeadLetter letter
                        ? List.of(KeyValue.pair(letter.key(), letter.value())) : List.of(), Named.as("original-record"))
                .to(topics.deadLetter().name(), Produced.with(Serdes.ByteArray(), Serdes.ByteArray())
                        .withName("dead-letters"));

        // 5. Optionally, only a revision higher than any seen for the case goes on, as the projection's own record.
        if (publishAssignments) {
            builder.addStateStore(Stores.keyValueStoreBuilder(
                    Stores.persistentKeyValueStore(REVISIONS_STORE), Serdes.String(), Serdes.Long()));
            Topic<String, SpecificRecord> assignments = topics.assignments();
            routes.get("route-" + UPDATE)
                    .flatMapValues(value -> value instanceof Forwarded.Update update ? List.of(update.update()) : List.of(),
                            Named.as("update"))
                    .process(() -> new MonotonicFilter(metrics), Named.as("monotonic-filter"), REVISIONS_STORE)
                    .to(assignments.name(), Produced.with(assignments.keySerde(), assignments.valueSerde())
                            .withName("case-assignments"));
        }
    }
}
