package org.caseassignments.backfill.replay;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.caseassignments.backfill.EventTopics;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.OptionChecks;
import org.caseassignments.backfill.SummaryLines;
import org.caseassignments.backfill.progress.ProgressOptions;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.ingest.SchemaRegistryProperties;
import org.caseassignments.schemas.serde.SerdeSettings;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.store.BatchWriter;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code backfill replay}: re-read the case event topics through the projector's path. */
@Component
@Command(name = "replay", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 110,
        description = {
                "Re-read the case event topics through the projector's path, up to their end offsets at the start.",
                "Re-read the case event topics from the beginning (or --from-timestamp) up to their end offsets at the start,",
                "with a consumer group of its own, through the projector's path: decode and validate, dead-letter what is bad,",
                "apply through the never-rewind guard in one transaction per batch, commit offsets after the database did.",
                "Safe while the projector runs: what is already current is not rewritten. --dry-run writes nothing.", ""},
        footer = {"", "Exit codes: 0 replayed to the end; 1 replayed to the end, some records dead-lettered (dry run: would be);",
                "2 refused to start (unreadable framing), or stopped by a failure."})
class ReplayCommand implements Callable<Integer> {

    @Option(names = "--topics", paramLabel = "TOPIC", split = ",",
            description = "Case event topics (default: backfill.replay.topics, $CASE_EVENTS_TOPICS, case.events).")
    List<String> topics;

    @Option(names = "--dead-letter-topic", paramLabel = "TOPIC",
            description = "Dead-letter topic (default: backfill.replay.dead-letter-topic, $CASE_EVENTS_DLQ_TOPIC, case.events.dlq).")
    String deadLetterTopic;

    @Option(names = "--group", paramLabel = "GROUP_ID",
            description = "The replay's consumer group (default: backfill.replay.group-id, $REPLAY_GROUP_ID, case-assignments-replay).")
    String group;

    @Option(names = "--from-timestamp", paramLabel = "INSTANT",
            description = "Start at the first record at or after this time, e.g. 2026-03-01T00:00:00Z (default: the beginning).")
    Instant fromTimestamp;

    @Option(names = "--resume", description = "Start each partition at the group's committed offset, where it has one.")
    boolean resume;

    @Option(names = "--dry-run", description = "Read, decode and apply each batch as a run would and roll it back: "
            + "reports what a run would apply and dead-letter; writes no row, commits no offset, sends no dead letter.")
    boolean dryRun;

    @Option(names = "--batch-size", paramLabel = "RECORDS", defaultValue = "5000",
            description = "Most records per poll, applied in one transaction (default: ${DEFAULT-VALUE}).")
    int batchSize;

    @Mixin
    ProgressOptions progress;

    @Spec
    CommandSpec spec;

    private final KafkaProperties kafka;
    private final SchemaRegistryProperties registry;
    private final ReplayProperties properties;
    private final IngestMetrics metrics;
    private final BatchWriter batchWriter;
    /** A dry run's meters, kept out of the registry the job pushes: its batches are rolled back. */
    private final IngestMetrics unrecorded;
    private final BatchWriter rollingBack;

    ReplayCommand(KafkaProperties kafka, SchemaRegistryProperties registry, ReplayProperties properties,
                  AssignmentWriter writer, PlatformTransactionManager transactions, MeterRegistry meters) {
        this.kafka = kafka;
        this.registry = registry;
        this.properties = properties;
        this.metrics = new IngestMetrics(meters, "replay");
        this.batchWriter = BatchWriter.once(new TransactionTemplate(transactions), writer, metrics.write());
        this.unrecorded = new IngestMetrics(new SimpleMeterRegistry(), "replay");
        this.rollingBack = BatchWriter.once(new TransactionTemplate(transactions), writer, unrecorded.write())
                .rollingBack();
    }

    @Override
    public Integer call() throws InterruptedException {
        OptionChecks.atLeast(spec, "--batch-size", batchSize, 1);
        OptionChecks.notBoth(spec, "--resume", resume, "--from-timestamp", fromTimestamp != null,
                "--resume starts where the group's offsets are; give one of them");
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<String> eventTopics = topics != null ? topics : properties.topics();
        String dlq = deadLetterTopic != null ? deadLetterTopic : properties.deadLetterTopic();
        String groupId = group != null ? group : properties.groupId();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerConfig(groupId),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
             KafkaProducer<byte[], byte[]> producer = dryRun ? null : new KafkaProducer<>(producerConfig(),
                     new ByteArraySerializer(), new ByteArraySerializer())) {
            SerdeSettings serde = EventTopics.serdeSettings(kafka, registry);
            ReplayRun replay = new ReplayRun(consumer, producer, dlq, properties.maxMessageBytes(),
                    EventTopics.reader(serde), dryRun ? rollingBack : batchWriter, dryRun ? unrecorded : metrics);
            replay.position(EventTopics.partitions(consumer, eventTopics, kafka), fromTimestamp, resume);
            EventTopics.requireReadableFraming(consumer, replay.ends(), serde);
            ReplayRun.Totals totals = replay.run(progress.start(err, "records"));
            report(out, eventTopics, groupId, dlq, totals, dryRun);
            return totals.deadLettered() > 0 ? ExitCodes.FINISHED_WITH_REJECTS : ExitCodes.SUCCESS;
        } catch (EventTopics.UnreadableFraming e) {
            err.println("backfill replay: refused — " + e.getMessage());
            err.flush();
            return ExitCodes.COULD_NOT_START;
        } catch (KafkaException | DataAccessException | IllegalStateException e) {
            err.println("backfill replay: stopped: " + e.getMessage()
                    + (e instanceof DataAccessException dae ? " (" + dae.getMostSpecificCause().getMessage() + ")" : "")
                    + (dryRun ? "; a dry run commits nothing, so nothing was written: run the dry run again"
                            : "; offsets are committed only up to the last batch the database committed: run again with --resume"));
            err.flush();
            return ExitCodes.failure(e);
        }
    }

    private Map<String, Object> consumerConfig(String groupId) {
        Map<String, Object> config = EventTopics.consumerConfig(kafka, batchSize);
        config.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        return config;
    }

    private Map<String, Object> producerConfig() {
        Map<String, Object> config = new HashMap<>(kafka.buildProducerProperties());
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        // A dead letter is cut to this size, so the producer must take a record of it.
        config.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, properties.maxMessageBytes());
        return config;
    }

    private static void report(PrintWriter out, List<String> topics, String group, String dlq, ReplayRun.Totals t,
                               boolean dryRun) {
        out.println((dryRun ? "backfill replay --dry-run: nothing written, no offset committed, no letter sent; a run now "
                + "would do this — " : "backfill replay: reached the end offsets captured at the start — ")
                + String.join(",", topics) + ", group " + group);
        SummaryLines.count(out, "records read", t.read());
        SummaryLines.count(out, "applied (moved a row)", t.applied());
        SummaryLines.count(out, "unchanged (current or older)", t.unchanged());
        SummaryLines.count(out, "dead-lettered to " + dlq, t.deadLettered());
        t.partitions().forEach(range -> out.printf(Locale.ROOT, "  %s: offsets %d → %d (end %d)%n",
                range.partition, range.start, range.next, range.end));
        out.flush();
    }
}
