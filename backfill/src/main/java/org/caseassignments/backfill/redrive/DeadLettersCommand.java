package org.caseassignments.backfill.redrive;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

import org.apache.avro.io.JsonEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.caseassignments.backfill.EventTopics;
import org.caseassignments.backfill.ExitCodes;
import org.caseassignments.backfill.OptionChecks;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.ingest.SchemaRegistryProperties;
import org.caseassignments.ingest.TraceParent;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.schemas.serde.BundledSchemas;
import org.caseassignments.schemas.serde.EventDecodingException;
import org.caseassignments.schemas.serde.SchemaRegistryClient;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.stereotype.Component;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code backfill dead-letters}: print dead letters decoded, so nobody reads Avro bytes by hand. */
@Component
@Command(name = "dead-letters", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 110,
        description = {
                "Print dead letters decoded: for each letter the selection takes, where it is, its key, its reason and",
                "message, the record it holds (source topic, partition, offset), the trace id of its traceparent header, and",
                "the event in Avro's JSON encoding (through the schema registry when the record is framed for one), or a",
                "line 'undecodable: …' saying why it cannot be decoded. Read-only: no consumer group, nothing committed.",
                "Takes the same selection options as redrive, so what it prints is what a redrive would take.", ""},
        footer = {"", "Exit codes: 0 printed (perhaps none); 1 more letters were selected than --max printed;",
                "2 stopped by a failure."})
class DeadLettersCommand implements Callable<Integer> {

    private static final Duration POLL = Duration.ofMillis(500);

    @Mixin
    DeadLetterSelection selection;

    @Option(names = "--max", paramLabel = "N", defaultValue = "100",
            description = "Most letters printed; the rest are counted (default: ${DEFAULT-VALUE}).")
    int max;

    @Spec
    CommandSpec spec;

    private final KafkaProperties kafka;
    private final SchemaRegistryProperties registry;
    private final RedriveProperties properties;

    DeadLettersCommand(KafkaProperties kafka, SchemaRegistryProperties registry, RedriveProperties properties) {
        this.kafka = kafka;
        this.registry = registry;
        this.properties = properties;
    }

    @Override
    public Integer call() {
        OptionChecks.atLeast(spec, "--max", max, 1);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String topic = selection.topic(properties);
        DeadLetterFilter filter = selection.filter();
        AvroEventCodec codec = new AvroEventCodec(EventTopics.serdeSettings(kafka, registry), BundledSchemas.current());
        try (KafkaConsumer<byte[], byte[]> consumer = DeadLetterSelection.consumer(kafka, 500)) {
            List<TopicPartition> partitions = EventTopics.partitions(consumer, List.of(topic), kafka);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            long read = 0;
            long selected = 0;
            while (ends.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
                for (ConsumerRecord<byte[], byte[]> letter : consumer.poll(POLL)) {
                    if (letter.offset() >= ends.get(new TopicPartition(letter.topic(), letter.partition()))) {
                        continue;
                    }
                    read++;
                    Optional<Provenance> provenance = Provenance.of(letter.headers());
                    if (provenance.map(p -> filter.selects(letter, p)).orElseGet(() -> filter.selectsWithoutProvenance(letter))
                            && ++selected <= max) {
                        print(out, letter, provenance, codec);
                    }
                }
            }
            out.printf("backfill dead-letters: %s, %,d read, %,d selected, %,d printed%n", topic, read, selected,
                    Math.min(selected, max));
            return selected > max ? ExitCodes.FINISHED_WITH_REJECTS : ExitCodes.SUCCESS;
        } catch (KafkaException | IllegalStateException e) {
            err.println("backfill dead-letters: stopped: " + e.getMessage());
            return ExitCodes.failure(e);
        } finally {
            out.flush();
            err.flush();
        }
    }


    private static void print(PrintWriter out, ConsumerRecord<byte[], byte[]> letter, Optional<Provenance> provenance,
                              AvroEventCodec codec) {
        out.printf("%s-%d@%d dead-lettered %s%n", letter.topic(), letter.partition(), letter.offset(),
                Instant.ofEpochMilli(letter.timestamp()));
        out.println("  key:     " + (letter.key() == null ? "(none)"
                : TerminalText.of(new String(letter.key(), StandardCharsets.UTF_8))));
        out.println("  reason:  " + TerminalText.of(String.valueOf(DeadLetters.header(letter.headers(), DeadLetters.REASON))) + ": "
                + TerminalText.of(String.valueOf(DeadLetters.header(letter.headers(), DeadLetters.MESSAGE))));
        out.println("  source:  " + TerminalText.of(provenance.map(Provenance::toString)
                .orElse("malformed dlq.source headers (topic, partition or offset missing or not a number)")));
        String traceId = TraceParent.traceId(letter.headers());
        out.println("  trace:   " + (traceId == null ? "(none)" : TerminalText.of(traceId)));
        out.println("  " + TerminalText.of(decoded(letter, codec)));
    }

    /**
     * {@code event: {json}}, or {@code undecodable: why}; an unreachable registry stops the command instead. A schema id
     * the registry answers 404 for is undecodable at once: the codec would call it transient for its not-found window,
     * which is for a projector waiting on a lagging follower, not for reading letters written long ago.
     */
    private static String decoded(ConsumerRecord<byte[], byte[]> letter, AvroEventCodec codec) {
        String truncated = DeadLetters.header(letter.headers(), DeadLetters.TRUNCATED);
        if (truncated != null) {
            return "undecodable: the letter holds only part of the original record (cut: " + truncated + ", original "
                    + DeadLetters.header(letter.headers(), DeadLetters.ORIGINAL_SIZE) + " bytes, sha256 "
                    + DeadLetters.header(letter.headers(), DeadLetters.ORIGINAL_SHA256) + ")";
        }
        if (letter.value() == null) {
            return "undecodable: the record has no value";
        }
        try {
            return "event:   " + json(codec.decode(letter.value()));
        } catch (EventDecodingException e) {
            if (e.getCause() instanceof SchemaRegistryClient.SchemaNotFoundException) {
                return "undecodable: registry has no schema id "
                        + ByteBuffer.wrap(letter.value(), 1, 4).order(ByteOrder.BIG_ENDIAN).getInt();
            }
            if (e.failure().isTransient()) {
                throw new IllegalStateException("cannot decode " + letter.topic() + "-" + letter.partition() + "@"
                        + letter.offset() + ": " + e.getMessage(), e);
            }
            return "undecodable: " + e.getMessage();
        }
    }

    private static String json(SpecificRecord event) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try {
            JsonEncoder encoder = EncoderFactory.get().jsonEncoder(event.getSchema(), bytes);
            new SpecificDatumWriter<SpecificRecord>(event.getSchema()).write(event, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
