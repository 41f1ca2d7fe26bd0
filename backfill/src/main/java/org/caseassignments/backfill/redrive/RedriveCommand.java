package org.caseassignments.backfill.redrive;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
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

/** {@code backfill redrive}: apply the dead letters that go through now, report those that still fail. */
@Component
@Command(name = "redrive", mixinStandardHelpOptions = true, sortOptions = false, usageHelpWidth = 110,
        description = {
                "Re-drive dead letters: decode them again with today's code and settings and apply what goes through now.",
                "Read the dead-letter topic (all of it, or the letters the filters select), skip and report the letters of",
                "records from other topics than the input topics and those with malformed dlq.source headers, decode each original record",
                "again, and apply those that now decode through the projector's never-rewind guard (safe: anything older than",
                "the projection changes nothing). Report those that still fail, with today's reason. A dry run unless --apply.",
                "Nothing is sent to the dead-letter topic, nothing is committed to Kafka: running it again is harmless.", ""},
        footer = {"", "Exit codes: 0 every selected letter went through (dry run: would); 1 some still fail, or letters",
                "were skipped (not from the input topics, or with malformed dlq.source headers);",
                "2 refused to start (unreadable framing), or stopped by a failure."})
class RedriveCommand implements Callable<Integer> {

    @Option(names = "--topics", paramLabel = "TOPIC", split = ",",
            description = "Input topics: only letters of their records are re-driven, the others are reported and skipped "
                    + "(default: backfill.redrive.topics, $CASE_EVENTS_TOPICS, case.events).")
    List<String> topics;

    @Option(names = "--apply", description = "Write what goes through (default: a dry run, every batch rolled back).")
    boolean apply;

    @Option(names = "--dry-run", description = "Roll every batch back, as without --apply (the default; not with --apply).")
    boolean dryRun;

    @Mixin
    DeadLetterSelection selection;

    @Option(names = "--batch-size", paramLabel = "LETTERS", defaultValue = "5000",
            description = "Most letters per poll, applied in one transaction (default: ${DEFAULT-VALUE}).")
    int batchSize;

    @Option(names = "--sample", paramLabel = "N", defaultValue = "10",
            description = "Letters that still fail to list (default: ${DEFAULT-VALUE}).")
    int sample;

    @Mixin
    ProgressOptions progress;

    @Spec
    CommandSpec spec;

    private final KafkaProperties kafka;
    private final SchemaRegistryProperties registry;
    private final RedriveProperties properties;
    private final BatchWriter writer;

    RedriveCommand(KafkaProperties kafka, SchemaRegistryProperties registry, RedriveProperties properties,
                   AssignmentWriter writer, PlatformTransactionManager transactions, MeterRegistry meters) {
        this.kafka = kafka;
        this.registry = registry;
        this.properties = properties;
        this.writer = BatchWriter.once(new TransactionTemplate(transactions), writer,
                new IngestMetrics(meters, "redrive").write());
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        OptionChecks.notBoth(spec, "--dry-run", dryRun, "--apply", apply, "choose one");
        OptionChecks.atLeast(spec, "--batch-size", batchSize, 1);
        OptionChecks.atLeast(spec, "--sample", sample, 0);
        String topic = selection.topic(properties);
        DeadLetterFilter filter = selection.filter();
        try (KafkaConsumer<byte[], byte[]> consumer = DeadLetterSelection.consumer(kafka, batchSize)) {
            SerdeSettings serde = EventTopics.serdeSettings(kafka, registry);
            RedriveRun run = new RedriveRun(consumer, EventTopics.reader(serde), apply ? writer : writer.rollingBack(),
                    inputTopics(), filter, sample);
            EventTopics.requireReadableFraming(consumer, run.position(EventTopics.partitions(consumer, List.of(topic), kafka)),
                    serde);
            RedriveRun.Totals totals = run.run(progress.start(err, "letters"));
            report(out, topic, totals);
            return totals.failing() + totals.skippedCount() > 0 ? ExitCodes.FINISHED_WITH_REJECTS : ExitCodes.SUCCESS;
        } catch (EventTopics.UnreadableFraming e) {
            err.println("backfill redrive: refused — " + e.getMessage());
            return ExitCodes.COULD_NOT_START;
        } catch (KafkaException | DataAccessException | IllegalStateException e) {
            err.println("backfill redrive: stopped: " + e.getMessage()
                    + (e instanceof DataAccessException dae ? " (" + dae.getMostSpecificCause().getMessage() + ")" : "")
                    + "; batches applied before stay applied, run it again (the guard makes that harmless)");
            return ExitCodes.failure(e);
        } finally {
            out.flush();
            err.flush();
        }
    }

    private Set<String> inputTopics() {
        return Set.copyOf(topics != null ? topics : properties.topics());
    }


    private void report(PrintWriter out, String topic, RedriveRun.Totals t) {
        out.println("backfill redrive: " + (apply ? "applied" : "dry run, every batch rolled back: would apply")
                + " what goes through now — " + topic);
        SummaryLines.count(out, "dead letters read", t.read());
        SummaryLines.count(out, "skipped, not from the input topics (" + String.join(",", new TreeSet<>(inputTopics()))
                + ")", t.skipped().getOrDefault(RedriveRun.NOT_FROM_INPUT_TOPICS, 0L));
        SummaryLines.count(out, "skipped, malformed dlq.source headers",
                t.skipped().getOrDefault(RedriveRun.MALFORMED_PROVENANCE, 0L));
        SummaryLines.count(out, "dead letters selected", t.selected());
        SummaryLines.count(out, "applied (moved a row)", t.applied());
        SummaryLines.count(out, "unchanged (current or older)", t.unchanged());
        SummaryLines.count(out, "still failing", t.failing());
        t.stillFailing().forEach((reason, count) -> SummaryLines.count(out, "  " + reason, count));
        t.sample().forEach(s -> out.printf(Locale.ROOT, "    %s %s: %s%n", s.source(), s.reason(), s.message()));
    }
}
