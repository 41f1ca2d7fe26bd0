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
import org.caseassignments.schemas.topics.CaseTopics;
import org.caseassignments.schemas.topics.Topic;

/** The projector's stream: input events to dead letters and to the compacted projection topic. */
final class ProjectorTopology {

    /** Highest revision seen per case id. Changelogged, so it survives a restart on another instance. */
    static final String REVISIONS_STORE = "case-revisions";

    private static final String DEAD_LETTER = "route-dead-letter";
    private static final String UPDATE = "route-update";

    private final CaseTopics topics;
    private final CaseEventReader reader;
    private final IngestMetrics metrics;
    private final RegistryRetry registryRetry;

    ProjectorTopology(CaseTopics topics, CaseEventReader reader, IngestMetrics metrics) {
        this(topics, reader, metrics, RegistryRetry.DEFAULT);
    }

    ProjectorTopology(CaseTopics topics, CaseEventReader reader, IngestMetrics metrics,
                      RegistryRetry registryRetry) {
        this.topics = topics;
        this.reader = reader;
        this.metrics = metrics;
        this.registryRetry = registryRetry;
    }

    void addTo(StreamsBuilder builder) {
        builder.addStateStore(Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(REVISIONS_STORE), Serdes.String(), Serdes.Long()));

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

        // 4. Only a revision higher than any seen for the case goes on, as the projection's own record.
        Topic<String, SpecificRecord> assignments = topics.assignments();
        routes.get(UPDATE)
                .mapValues(decoded -> ((Decoded.Update) decoded).update(), Named.as("update"))
                .process(() -> new MonotonicFilter(metrics), Named.as("monotonic-filter"), REVISIONS_STORE)
                .to(assignments.name(), Produced.with(assignments.keySerde(), assignments.valueSerde())
                        .withName("case-assignments"));
    }
}
