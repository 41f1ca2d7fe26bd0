package org.caseassignments.projector;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.Ingested;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.DrainWorkload;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;
import org.caseassignments.projector.testsupport.KafkaOffsets;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * Opt-in benchmark (not a test): how fast the projector drains 1,000,000 events over 100,000 cases
 * into PostgreSQL, entity rows included, against two baselines on the same data — a naive consumer
 * that commits one transaction (and one offset) per event, measured on a sample, and the
 * server-side ceiling, the same final rows applied by one {@code INSERT … SELECT … ON CONFLICT … WHERE},
 * one {@code INSERT … SELECT} of every distinct revision into the history, and one {@code UPDATE … FROM} per
 * entity table. See BENCHMARKS.md for the command and results.
 *
 * <p>System properties: {@code cases} (100000), {@code changes} per case (8), {@code extra} duplicated
 * deliveries (100000), {@code swaps} out-of-order pairs (50000), {@code naive.sample} (20000),
 * {@code partitions} (3), {@code seed} (1), {@code baselines} (true), {@code warmup} (0: first drain
 * the same workload N times, unmeasured, on topics of their own), {@code rounds} (1: measured drains,
 * each followed by the ceiling; the summary gives medians), and any {@code projector.*} or
 * {@code spring.kafka.*} setting, e.g.
 * {@code -Dprojector.streams.commit-interval=2s}.
 */
public final class ProjectorPerformance {

    private static final AvroEventCodec CODEC = AvroEventCodec.singleObject();

    public record Event(String key, byte[] value, UUID caseId, String worker, String supervisor, long revision) {
    }

    /** CPU time so far, in nanoseconds: of this JVM, its stream threads, and the database's backends. */
    record Cpu(long jvm, long streams, long postgres, Map<String, Long> byThreadGroup) {

        static Cpu now(String database) {
            var threads = java.lang.management.ManagementFactory.getThreadMXBean();
            long streams = 0;
            for (var info : threads.getThreadInfo(threads.getAllThreadIds())) {
                if (info != null && info.getThreadName().contains("StreamThread")) {
                    streams += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
                }
            }
            long jvm = ((com.sun.management.OperatingSystemMXBean)
                    java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
            return new Cpu(jvm, streams, postgresBackends(database), threadGroups());
        }

        /** utime + stime of this JVM's threads from /proc, grouped by name with digits dropped (Linux only). */
        private static Map<String, Long> threadGroups() {
            Map<String, Long> groups = new java.util.TreeMap<>();
            java.io.File[] tasks = new java.io.File("/proc/self/task").listFiles();
            for (java.io.File task : tasks == null ? new java.io.File[0] : tasks) {
                try {
                    String name = java.nio.file.Files.readString(task.toPath().resolve("comm")).strip()
                            .replaceAll("\\d+", "#");
                    groups.merge(name, cpuNanos(task.toPath().resolve("stat")), Long::sum);
                } catch (java.io.IOException | RuntimeException e) {
                    // the thread ended meanwhile, or this is not Linux
                }
            }
            return groups;
        }

        /** The thread groups that used the most CPU since {@code before}, in µs per event. */
        String topThreads(Cpu before, int events) {
            return byThreadGroup.entrySet().stream()
                    .map(e -> Map.entry(e.getKey(), e.getValue() - before.byThreadGroup.getOrDefault(e.getKey(), 0L)))
                    .filter(e -> e.getValue() > 0)
                    .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(8)
                    .map(e -> String.format("%s %.1f", e.getKey(), e.getValue() / 1e3 / events))
                    .collect(java.util.stream.Collectors.joining(", "));
        }

        /** utime + stime of the server processes serving {@code database}, from /proc (Linux only; 0 elsewhere). */
        private static long postgresBackends(String database) {
            long nanos = 0;
            java.io.File[] processes = new java.io.File("/proc").listFiles(f -> f.getName().matches("\\d+"));
            for (java.io.File process : processes == null ? new java.io.File[0] : processes) {
                try {
                    String command = java.nio.file.Files.readString(process.toPath().resolve("cmdline"));
                    if (command.startsWith("postgres: ") && command.contains(" " + database + " ")) {
                        nanos += cpuNanos(process.toPath().resolve("stat"));
                    }
                } catch (java.io.IOException | RuntimeException e) {
                    // the process ended meanwhile, or this is not Linux
                }
            }
            return nanos;
        }

        /** utime + stime from a process's or thread's {@code stat} file under /proc, in nanoseconds. */
        private static long cpuNanos(java.nio.file.Path stat) throws java.io.IOException {
            String line = java.nio.file.Files.readString(stat);
            String[] fields = line.substring(line.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10_000_000L; // USER_HZ is 100 on Linux
        }

        String perEvent(Cpu before, int events) {
            return String.format("stream threads (decoding, batching, the PostgreSQL client) %.1f, rest of the JVM "
                            + "(embedded broker, Kafka clients' I/O, GC) %.1f, PostgreSQL backends %.1f µs of CPU per event",
                    (streams - before.streams) / 1e3 / events,
                    ((jvm - before.jvm) - (streams - before.streams)) / 1e3 / events,
                    (postgres - before.postgres) / 1e3 / events);
        }
    }

    public static void main(String[] args) throws Exception {
        // The broker waits for a new group's members as production brokers do (Kafka's default, 3 s), so the
        // projector's stream threads join one group together; with the test suite's 0 they join one by one,
        // and the tasks that move between them right after start each write an early batch.
        if (System.getProperty(TestKafka.INITIAL_REBALANCE_DELAY) == null) {
            System.setProperty(TestKafka.INITIAL_REBALANCE_DELAY, "3000");
        }
        int cases = Integer.getInteger("cases", 100_000);
        int changes = Integer.getInteger("changes", 8);
        int extra = Integer.getInteger("extra", 100_000);
        int swaps = Integer.getInteger("swaps", 50_000);
        int naiveSample = Integer.getInteger("naive.sample", 20_000);
        int partitions = Integer.getInteger("partitions", 3);
        Random random = new Random(Long.getLong("seed", 1));

        List<UUID> caseIds = DrainWorkload.caseIds(random, cases);
        List<Event> events = deliveries(random, caseIds, changes, extra, swaps);
        System.out.printf("data: %,d events over %,d cases (%d changes each, %,d duplicated deliveries, %,d swapped pairs)%n",
                events.size(), cases, changes, extra, swaps);

        ProjectorTopics topics = ProjectorTopics.unique(partitions).createEvents();
        long publishStart = System.nanoTime();
        publish(topics.events(), events);
        System.out.printf("published in %.1f s%n", seconds(publishStart));

        // -Dwarmup=N (or true for 1): N unmeasured drains first, each of the same workload on topics and a
        // database of its own, with other case ids, so the measured run finds the JIT-compiled code paths of
        // a projector that has been running for a while.
        String warmups = System.getProperty("warmup", "0");
        int warmupRuns = warmups.equals("true") ? 1 : warmups.equals("false") ? 0 : Integer.parseInt(warmups);
        for (int w = 1; w <= warmupRuns; w++) {
            Random warmRandom = new Random(Long.getLong("seed", 1) + w);
            List<UUID> warmIds = new ArrayList<>();
            for (int c = 0; c < cases; c++) {
                warmIds.add(new UUID(warmRandom.nextLong(), warmRandom.nextLong()));
            }
            List<Event> warmEvents = deliveries(warmRandom, warmIds, changes, extra, swaps);
            ProjectorTopics warmTopics = ProjectorTopics.unique(partitions).createEvents();
            publish(warmTopics.events(), warmEvents);
            double warm = projector(warmTopics, warmIds, changes, warmEvents.size(), warmRandom);
            System.out.printf("warm-up run %d (not measured): %,.0f events/s%n", w, warm);
        }
        // -Drounds=N: N measured drains, each followed by the ceiling on a fresh database, so every ratio
        // compares two measurements taken a minute apart; the summary gives the median of each.
        int rounds = Integer.getInteger("rounds", 1);
        boolean baselines = Boolean.parseBoolean(System.getProperty("baselines", "true"));
        List<double[]> measured = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            double projector = projector(topics, caseIds, changes, events.size(), random);
            if (!baselines) {
                continue;
            }
            double[] ceiling = ceiling(events, caseIds, random);
            measured.add(new double[] {projector, projector / ceiling[0], projector / ceiling[1]});
            System.out.printf("round %d: projector %,.0f events/s; ceiling %,.0f / %,.0f events/s (statements only / "
                            + "with COPY); projector / ceiling = %.1f%% / %.1f%%%n", round, projector, ceiling[0],
                    ceiling[1], 100 * projector / ceiling[0], 100 * projector / ceiling[1]);
        }
        if (!baselines) {
            System.exit(0);
        }
        double naive = naive(topics, caseIds, naiveSample, random);

        double projector = median(measured, 0);
        System.out.printf("%nprojector: %,.0f events/s%s%n", projector, rounds > 1 ? " (median of " + rounds + " rounds)" : "");
        System.out.printf("naive (one transaction per event, first %,d events): %,.0f events/s%n",
                naiveSample, naive);
        System.out.printf("projector / naive = %.1fx; projector / ceiling = %.1f%% (statements only), %.1f%% (with COPY)%s%n",
                projector / naive, 100 * median(measured, 1), 100 * median(measured, 2),
                rounds > 1 ? ", medians of the rounds' ratios" : "");
        System.out.printf("machine: %d processors, %d MiB max heap, Java %s%n", Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20, System.getProperty("java.version"));
        System.exit(0);
    }

    /** Each case: created, then changes 1..n, interleaved across cases round by round; then disorder ({@link DrainWorkload}). */
    public static List<Event> deliveries(Random random, List<UUID> caseIds, int changes, int extra, int swaps) {
        return DrainWorkload.deliveries(random, caseIds, changes, extra, swaps,
                (caseId, revision, worker, supervisor, position) -> event(caseId, revision, worker, supervisor));
    }

    private static Event event(UUID caseId, int revision, String worker, String supervisor) {
        SpecificRecord record = revision == 0
                ? CaseEvents.created(caseId).worker(worker).supervisor(supervisor).build()
                : CaseEvents.changed(caseId, revision).worker(worker).supervisor(supervisor).build();
        return new Event(caseId.toString(), CODEC.encode("case.events", record, false), caseId, worker, supervisor, revision);
    }

    public static void publish(String topic, List<Event> events) throws Exception {
        publish(topic, events, null);
    }

    /** Publishes the events, each record carrying {@code headers} (none when null). */
    static void publish(String topic, List<Event> events, Iterable<org.apache.kafka.common.header.Header> headers)
            throws Exception {
        Map<String, Object> config = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 20,
                ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config, new ByteArraySerializer(),
                new ByteArraySerializer())) {
            List<Future<RecordMetadata>> sent = new ArrayList<>(events.size());
            for (Event e : events) {
                sent.add(producer.send(new ProducerRecord<>(topic, null, e.key().getBytes(), e.value(), headers)));
            }
            producer.flush();
            for (Future<RecordMetadata> f : sent) {
                f.get(60, TimeUnit.SECONDS);
            }
        }
    }

    public static double projector(ProjectorTopics topics, List<UUID> caseIds, int changes, int events, Random random)
            throws InterruptedException {
        TestDatabase db = TestDatabase.migrated();
        DrainWorkload.seedEntityRows(db, caseIds, new Random(random.nextLong()));
        JdbcTemplate jdbc = db.jdbc();
        String applicationId = ProjectorInstance.uniqueApplicationId();
        Map<String, String> properties = ProjectorInstance.properties(db, topics, applicationId);
        System.getProperties().stringPropertyNames().stream()
                .filter(name -> name.startsWith("projector.") || name.startsWith("spring.kafka."))
                .forEach(name -> properties.put(name, System.getProperty(name)));
        long start = System.nanoTime();
        long running = 0;
        long firstEvent = 0;
        long firstBatch = 0;
        double firstBatchEvents = 0;
        long end;
        long offsetsCommitted;
        Cpu cpuAtRunning;
        try (ProjectorInstance projector = ProjectorInstance.start(properties)) {
            System.out.printf("projector started in %.1f s%n", seconds(start));
            // Timed from the moment the stream threads run (consuming starts then), not from the first
            // database commit, which comes only after the first batch was gathered. With several threads a
            // thread may already process while the instance as a whole is still rebalancing: whichever
            // comes first starts the clock.
            while (projector.streams().state() != org.apache.kafka.streams.KafkaStreams.State.RUNNING
                    && recordsProcessed(projector.streams()) == 0) {
                Thread.sleep(10);
            }
            running = System.nanoTime();
            if (recordsProcessed(projector.streams()) > 0) {
                firstEvent = running;
            }
            cpuAtRunning = Cpu.now(db.name());
            // Progress is read from the projector's own meter (events in committed batches), which costs
            // nothing: polling PostgreSQL or creating admin clients would take CPU from what is measured.
            var applied = projector.bean(io.micrometer.core.instrument.MeterRegistry.class)
                    .get("case_assignments.batch.size").summary();
            while (applied.totalAmount() < events) {
                if (firstEvent == 0 && recordsProcessed(projector.streams()) > 0) {
                    firstEvent = System.nanoTime();
                }
                if (firstBatch == 0 && applied.count() > 0) {
                    firstBatch = System.nanoTime();
                    firstBatchEvents = applied.totalAmount();
                }
                Thread.sleep(10);
            }
            end = System.nanoTime();
            if (firstBatch == 0) {
                firstBatch = end;
            }
            if (firstEvent == 0) {
                firstEvent = firstBatch;
            }
            report(projector.bean(io.micrometer.core.instrument.MeterRegistry.class));
            Cpu cpuAtEnd = Cpu.now(db.name());
            System.out.println("projector CPU: " + cpuAtEnd.perEvent(cpuAtRunning, events));
            System.out.println("projector CPU by thread (names as the kernel has them, µs per event): "
                    + cpuAtEnd.topThreads(cpuAtRunning, events));
            while (!KafkaOffsets.caughtUp(applicationId, topics.events(), topics.partitions())) {
                Thread.sleep(10);
            }
            offsetsCommitted = System.nanoTime();
        }
        double drain = (end - running) / 1e9;
        System.out.printf("projector: drained %,d events in %.1f s from the moment its stream threads ran (%.1f s including "
                        + "startup); its first event was processed after %.1f s and its first database commit (%,.0f events) "
                        + "%.1f s after that; all input offsets were committed after %.1f s%n",
                events, drain, (end - start) / 1e9, (firstEvent - running) / 1e9, firstBatchEvents,
                (firstBatch - firstEvent) / 1e9,
                (offsetsCommitted - running) / 1e9);
        verify(jdbc, caseIds, changes);
        return events / drain;
    }

    /** Records the instance's stream threads have processed so far (Kafka Streams' own {@code process-total}). */
    private static double recordsProcessed(org.apache.kafka.streams.KafkaStreams streams) {
        return streams.metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals("stream-thread-metrics") && e.getKey().name().equals("process-total"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue())
                .sum();
    }

    private static void report(io.micrometer.core.instrument.MeterRegistry meters) {
        var size = meters.get("case_assignments.batch.size").summary();
        var apply = meters.get("case_assignments.batch.apply").timer();
        System.out.printf("projector batches: %,d, %.0f events per batch on average (max %.0f), "
                        + "%.1f s in PostgreSQL transactions (%.0f ms per batch); %,.0f events changed nothing in the database%n",
                size.count(), size.mean(), size.max(), apply.totalTime(TimeUnit.SECONDS),
                apply.mean(TimeUnit.MILLISECONDS),
                meters.get("case_assignments.events.skipped").tag("stage", "database").counter().count());
    }

    /**
     * The final state: every case at its last revision, every entity row carrying its case's assignment, every
     * revision of every case once in the history.
     */
    private static void verify(JdbcTemplate jdbc, List<UUID> caseIds, int changes) {
        Integer off = jdbc.queryForObject("""
                SELECT (SELECT count(*) FROM case_assignments WHERE assignment_revision <> ?)
                     + (SELECT count(*) FROM placements e JOIN case_assignments ca USING (case_id)
                         WHERE (e.assigned_worker_sub, e.supervisor_sub, e.assignment_revision)
                               IS DISTINCT FROM (ca.assigned_worker_sub, ca.supervisor_sub, ca.assignment_revision))
                     + (SELECT count(*) FROM kinship_options e JOIN case_assignments ca USING (case_id)
                         WHERE (e.assigned_worker_sub, e.supervisor_sub, e.assignment_revision)
                               IS DISTINCT FROM (ca.assigned_worker_sub, ca.supervisor_sub, ca.assignment_revision))""",
                Integer.class, changes);
        Integer rows = jdbc.queryForObject("SELECT count(*) FROM case_assignments", Integer.class);
        Long history = jdbc.queryForObject("SELECT count(*) FROM case_assignment_history", Long.class);
        if (off != 0 || rows != caseIds.size() || history != (long) caseIds.size() * (changes + 1)) {
            throw new IllegalStateException("final state wrong: " + off + " rows off, " + rows + " projection rows, "
                    + history + " history entries");
        }
    }

    /** One transaction per event through the same guarded writer; offsets committed after each poll's events. */
    private static double naive(ProjectorTopics topics, List<UUID> caseIds, int sample, Random random) {
        TestDatabase db = TestDatabase.migrated();
        DrainWorkload.seedEntityRows(db, caseIds, new Random(random.nextLong()));
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(db.dataSource()));
        AssignmentWriter writer = new AssignmentWriter(new JdbcTemplate(db.dataSource()));
        CaseEventReader reader = new CaseEventReader(CODEC);
        Map<String, Object> config = Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "naive-" + UUID.randomUUID(),
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        int applied = 0;
        long start = System.nanoTime();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topics.events()));
            while (applied < sample) {
                Map<TopicPartition, OffsetAndMetadata> done = new HashMap<>();
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (applied == 0) {
                        start = System.nanoTime();
                    }
                    if (reader.read(record.key(), record.value()) instanceof Ingested.Accepted accepted) {
                        transaction.executeWithoutResult(status -> writer.apply(List.of(accepted.update())));
                    }
                    done.put(new TopicPartition(record.topic(), record.partition()), new OffsetAndMetadata(record.offset() + 1));
                    if (++applied == sample) {
                        break;
                    }
                }
                // Offsets after the database, once per poll; committing them once per event as well costs ~10 ms more each.
                consumer.commitSync(done);
            }
        }
        double took = seconds(start);
        System.out.printf("naive: %,d events in %.1f s%n", sample, took);
        return sample / took;
    }

    /** The same final rows by set-based statements: {statements only, including the COPY of the events}. */
    private static double[] ceiling(List<Event> events, List<UUID> caseIds, Random random) throws Exception {
        TestDatabase db = TestDatabase.migrated();
        DrainWorkload.seedEntityRows(db, caseIds, new Random(random.nextLong()));
        db.jdbc().execute("CREATE UNLOGGED TABLE staged_events (case_id uuid, worker text, supervisor text, revision bigint)");
        StringBuilder rows = new StringBuilder(events.size() * 80);
        for (Event e : events) {
            rows.append(e.caseId()).append('\t').append(e.worker()).append('\t').append(e.supervisor()).append('\t')
                    .append(e.revision()).append('\n');
        }
        long copyStart = System.nanoTime();
        DrainWorkload.copy(db, "staged_events", rows.toString());
        double copy = seconds(copyStart);
        double statements;
        try (Connection connection = db.dataSource().getConnection(); Statement sql = connection.createStatement()) {
            connection.setAutoCommit(false);
            long start = System.nanoTime();
            sql.executeUpdate("""
                    INSERT INTO case_assignments AS ca (case_id, assigned_worker_sub, supervisor_sub, assignment_revision, updated_at)
                    SELECT DISTINCT ON (case_id) case_id, worker, supervisor, revision, now()
                      FROM staged_events ORDER BY case_id, revision DESC
                    ON CONFLICT (case_id) DO UPDATE
                       SET assigned_worker_sub = EXCLUDED.assigned_worker_sub,
                           supervisor_sub      = EXCLUDED.supervisor_sub,
                           assignment_revision = EXCLUDED.assignment_revision,
                           updated_at          = now()
                     WHERE ca.assignment_revision < EXCLUDED.assignment_revision""");
            // Every distinct (case, revision) into the history, as the projector records it (decision 32).
            sql.executeUpdate("""
                    INSERT INTO case_assignment_history (case_id, assignment_revision, assigned_worker_sub, supervisor_sub)
                    SELECT DISTINCT ON (case_id, revision) case_id, revision, worker, supervisor
                      FROM staged_events ORDER BY case_id, revision
                    ON CONFLICT (case_id, assignment_revision) DO NOTHING""");
            for (String table : List.of("placements", "kinship_options")) {
                sql.executeUpdate("""
                        UPDATE %s AS e
                           SET assigned_worker_sub = ca.assigned_worker_sub,
                               supervisor_sub      = ca.supervisor_sub,
                               assignment_revision = ca.assignment_revision,
                               updated_at          = now()
                          FROM case_assignments ca
                         WHERE e.case_id = ca.case_id
                           AND ca.assignment_revision >= 0
                           AND (e.assignment_revision < ca.assignment_revision
                                OR (e.assignment_revision = ca.assignment_revision
                                    AND (e.assigned_worker_sub, e.supervisor_sub)
                                        IS DISTINCT FROM (ca.assigned_worker_sub, ca.supervisor_sub)))""".formatted(table));
            }
            connection.commit();
            statements = seconds(start);
        }
        verify(db.jdbc(), caseIds, Integer.getInteger("changes", 8));
        System.out.printf("ceiling: COPY of %,d events %.1f s, INSERT … SELECT + UPDATE … FROM %.1f s%n",
                events.size(), copy, statements);
        return new double[] {events.size() / statements, events.size() / (statements + copy)};
    }

    private static double median(List<double[]> rows, int column) {
        double[] values = rows.stream().mapToDouble(row -> row[column]).sorted().toArray();
        int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
