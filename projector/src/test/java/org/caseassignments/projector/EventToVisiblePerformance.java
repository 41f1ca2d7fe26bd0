package org.caseassignments.projector;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.DrainWorkload;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * Opt-in benchmark (never run by the build; see BENCHMARKS.md): how long after its {@code occurred_at}
 * an event's row is visible in PostgreSQL, at a steady rate on a projector that keeps up.
 * <p>
 * The cases are created first (not measured); then {@code rate} {@code CaseAssignmentChanged} events a
 * second, each case's revisions in order, for {@code seconds}. A trigger on {@code case_assignments}
 * sends {@code NOTIFY} with the case and revision of every written row; PostgreSQL delivers a
 * notification only when its transaction commits, so its arrival at a listening connection is the
 * moment the row became visible to readers. Latency = arrival − the event's {@code occurred_at}
 * (both this JVM's wall clock, in milliseconds). An event overtaken by a later revision of its case in
 * the same batch is never written (the batch keeps the newest per case); it is counted as superseded,
 * and the newer revision's latency stands for it.
 * <p>
 * The measured events follow {@code warmup} seconds of the same stream, unmeasured, so that the measurement
 * meets a projector that has been running (its code compiled), not a JVM that just started.
 * System properties: {@code rate} (1000 events/s), {@code cases} (10000), {@code seconds} (60), {@code warmup} (60),
 * {@code partitions} (3), and any {@code projector.*} setting, e.g. {@code -Dprojector.sink.check-every=20ms}.
 */
public final class EventToVisiblePerformance {

    private static final AvroEventCodec CODEC = AvroEventCodec.singleObject();

    private EventToVisiblePerformance() {
    }

    public static void main(String[] args) throws Exception {
        int rate = Integer.getInteger("rate", 1000);
        int cases = Integer.getInteger("cases", 10_000);
        int seconds = Integer.getInteger("seconds", 60);
        int warmup = Integer.getInteger("warmup", 60);
        int partitions = Integer.getInteger("partitions", 3);
        Random random = new Random(Long.getLong("seed", 1));
        List<UUID> caseIds = DrainWorkload.caseIds(random, cases);

        TestDatabase db = TestDatabase.migrated();
        try (Connection ddl = db.dataSource().getConnection(); Statement statement = ddl.createStatement()) {
            statement.execute("""
                    CREATE FUNCTION bench_visible() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN
                        PERFORM pg_notify('visible', NEW.case_id::text || ' ' || NEW.assignment_revision);
                        RETURN NULL;
                    END $$""");
            statement.execute("""
                    CREATE TRIGGER bench_visible AFTER INSERT OR UPDATE ON case_assignments
                    FOR EACH ROW EXECUTE FUNCTION bench_visible()""");
        }
        Map<String, Long> occurredAt = new ConcurrentHashMap<>();
        Map<String, Long> visibleAt = new ConcurrentHashMap<>();
        AtomicBoolean listening = new AtomicBoolean(true);
        Thread listener = listen(db, visibleAt, listening);

        ProjectorTopics topics = ProjectorTopics.unique(partitions).createEvents();
        Map<String, String> properties = ProjectorInstance.properties(db, topics, ProjectorInstance.uniqueApplicationId());
        System.getProperties().stringPropertyNames().stream()
                .filter(name -> name.startsWith("projector.") || name.startsWith("spring.kafka."))
                .forEach(name -> properties.put(name, System.getProperty(name)));
        System.out.println("Load average at start: " + java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).strip());
        System.out.println("Projector settings: " + properties.entrySet().stream()
                .filter(e -> e.getKey().startsWith("projector.sink") || e.getKey().startsWith("projector.streams.commit"))
                .toList() + " (others: application.yml defaults)");

        try (ProjectorInstance projector = ProjectorInstance.start(properties);
             KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(Map.of(
                     ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers(),
                     ProducerConfig.ACKS_CONFIG, "all",
                     ProducerConfig.LINGER_MS_CONFIG, 0), new ByteArraySerializer(), new ByteArraySerializer())) {
            // The cases exist before the measurement: created, and visible.
            for (UUID caseId : caseIds) {
                send(producer, topics, caseId, CaseEvents.created(caseId).build());
            }
            producer.flush();
            awaitVisible(visibleAt, caseIds, 0, Duration.ofSeconds(120));
            visibleAt.clear();
            System.out.printf("%,d cases created and visible; now %,d events/s for %d s unmeasured (warm-up), then %d s%n",
                    cases, rate, warmup, seconds);

            long[] revisions = new long[cases];
            ProjectorPerformance.Cpu cpuBefore = null;
            double commitsBefore = 0;
            long warmupEvents = (long) rate * warmup;
            long total = (long) rate * seconds;
            long begin = System.nanoTime();
            long start = begin;
            for (long n = 0; n < warmupEvents + total; n++) {
                if (n == warmupEvents) {
                    // the measurement starts on a projector that has been running at this rate
                    cpuBefore = ProjectorPerformance.Cpu.now(db.name());
                    commitsBefore = commits(projector);
                    start = System.nanoTime();
                }
                long due = begin + n * 1_000_000_000L / rate;
                long wait = due - System.nanoTime();
                if (wait > 0) {
                    java.util.concurrent.locks.LockSupport.parkNanos(wait);
                }
                int c = random.nextInt(cases);
                UUID caseId = caseIds.get(c);
                SpecificRecord event = CaseEvents.changed(caseId, ++revisions[c])
                        .worker("worker-" + random.nextInt(5000)).build();
                if (n >= warmupEvents) {
                    occurredAt.put(caseId + " " + revisions[c],
                            ((org.caseassignments.schemas.events.CaseAssignmentChanged) event).getOccurredAt().toEpochMilli());
                }
                send(producer, topics, caseId, event);
            }
            producer.flush();
            double sentRate = total / ((System.nanoTime() - start) / 1e9);
            // Every case's last revision must become visible; earlier ones may be superseded within a batch.
            List<String> last = new ArrayList<>();
            for (int c = 0; c < cases; c++) {
                if (revisions[c] > 0) {
                    last.add(caseIds.get(c) + " " + revisions[c]);
                }
            }
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!visibleAt.keySet().containsAll(last) && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            double elapsed = (System.nanoTime() - start) / 1e9;
            ProjectorPerformance.Cpu cpuAfter = ProjectorPerformance.Cpu.now(db.name());
            double commits = commits(projector) - commitsBefore;
            listening.set(false);
            listener.join();
            report(occurredAt, visibleAt, last, sentRate);
            // What the latency costs: the JVM holds the projector, the embedded broker and this load generator.
            System.out.printf("over the %.0f s measured: JVM %.2f cores (stream threads %.2f), PostgreSQL backends %.2f "
                            + "cores; %.0f Kafka Streams commits (%.1f/s)%n", elapsed,
                    (cpuAfter.jvm() - cpuBefore.jvm()) / 1e9 / elapsed,
                    (cpuAfter.streams() - cpuBefore.streams()) / 1e9 / elapsed,
                    (cpuAfter.postgres() - cpuBefore.postgres()) / 1e9 / elapsed, commits, commits / elapsed);
            System.out.println("JVM CPU by thread group, µs per event sent: " + cpuAfter.topThreads(cpuBefore, (int) total));
        }
        System.exit(0);
    }

    /** The commits the instance's stream threads have made so far (Kafka Streams' own {@code commit-total}). */
    private static double commits(ProjectorInstance projector) {
        return projector.streams().metrics().entrySet().stream()
                .filter(e -> e.getKey().group().equals("stream-thread-metrics") && e.getKey().name().equals("commit-total"))
                .mapToDouble(e -> ((Number) e.getValue().metricValue()).doubleValue()).sum();
    }

    private static void send(KafkaProducer<byte[], byte[]> producer, ProjectorTopics topics, UUID caseId,
                             SpecificRecord event) {
        producer.send(new ProducerRecord<>(topics.events(), caseId.toString().getBytes(),
                CODEC.encode("case.events", event, false)));
    }

    /** Records when each (case, revision) became visible: when its commit's notification arrived. */
    private static Thread listen(TestDatabase db, Map<String, Long> visibleAt, AtomicBoolean listening) throws Exception {
        Connection connection = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
        try (Statement statement = connection.createStatement()) {
            statement.execute("LISTEN visible");
        }
        PGConnection pg = connection.unwrap(PGConnection.class);
        Thread thread = new Thread(() -> {
            try (connection) {
                while (listening.get()) {
                    PGNotification[] notifications = pg.getNotifications(50);
                    long now = System.currentTimeMillis();
                    for (PGNotification notification : notifications == null ? new PGNotification[0] : notifications) {
                        visibleAt.putIfAbsent(notification.getParameter(), now);
                    }
                }
            } catch (Exception e) {
                throw new IllegalStateException("listening for visible rows failed", e);
            }
        }, "visible-listener");
        thread.start();
        return thread;
    }

    private static void awaitVisible(Map<String, Long> visibleAt, List<UUID> caseIds, long revision, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (caseIds.stream().anyMatch(id -> !visibleAt.containsKey(id + " " + revision))) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the created cases were not all visible within " + timeout);
            }
            Thread.sleep(100);
        }
    }

    private static void report(Map<String, Long> occurredAt, Map<String, Long> visibleAt, List<String> last,
                               double sentRate) {
        long[] latencies = occurredAt.entrySet().stream()
                .filter(e -> visibleAt.containsKey(e.getKey()))
                .mapToLong(e -> visibleAt.get(e.getKey()) - e.getValue())
                .sorted().toArray();
        long lastMissing = last.stream().filter(key -> !visibleAt.containsKey(key)).count();
        System.out.printf("sent %,.0f events/s; %,d events written and visible, %,d superseded in their batch by a "
                        + "later revision, %,d last revisions never visible%n", sentRate, latencies.length,
                occurredAt.size() - latencies.length, lastMissing);
        System.out.printf("| event → visible | p50 %d ms | p90 %d ms | p99 %d ms | max %d ms |%n",
                at(latencies, 0.50), at(latencies, 0.90), at(latencies, 0.99),
                latencies.length == 0 ? -1 : latencies[latencies.length - 1]);
        if (lastMissing > 0) {
            System.out.println("NOT ALL VISIBLE: the projector did not keep up; the percentiles are of what was.");
        }
        System.out.println("(distribution: " + Arrays.toString(new long[] {at(latencies, 0.1), at(latencies, 0.25),
                at(latencies, 0.75), at(latencies, 0.95), at(latencies, 0.999)}) + " ms at p10/p25/p75/p95/p99.9)");
    }

    private static long at(long[] sorted, double p) {
        return sorted.length == 0 ? -1 : sorted[(int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
    }
}
