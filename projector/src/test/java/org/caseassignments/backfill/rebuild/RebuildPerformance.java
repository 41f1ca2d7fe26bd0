package org.caseassignments.backfill.rebuild;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;

import org.caseassignments.backfill.BackfillApplication;
import org.caseassignments.projector.ProjectorPerformance;
import org.caseassignments.testkit.DrainWorkload;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * Opt-in benchmark (not a test): {@code backfill rebuild} of the projector benchmark's workload (by default
 * 1,000,000 events over 100,000 cases, {@link ProjectorPerformance#deliveries}) against a live table holding the
 * final rows, one in a hundred at an inflated revision, compared with the projector's own drain of the same topic;
 * and the pause the swap causes, as the rebuild reports it and as a reader sees it that reads random cases
 * {@code FOR SHARE}, one statement every 2 ms, throughout. See BENCHMARKS.md for the command and results.
 *
 * <p>System properties: {@code cases} (100000), {@code changes} (8), {@code extra} (100000), {@code swaps} (50000),
 * {@code partitions} (3), {@code seed} (1), {@code projector} (true: also time the projector's drain), {@code rate}
 * (0: events per second of live traffic during the rebuild, each published and applied to the live table at once,
 * as a projector with no lag would).
 *
 * <p>It sits in the rebuild's package ({@code backfill.rebuild}) but in the projector module's test sources:
 * it also times the projector's drain of the same topic, and only the projector's tests see both modules.
 */
public final class RebuildPerformance {

    public static void main(String[] args) throws Exception {
        int cases = Integer.getInteger("cases", 100_000);
        int changes = Integer.getInteger("changes", 8);
        Random random = new Random(Long.getLong("seed", 1));
        List<UUID> caseIds = DrainWorkload.caseIds(random, cases);
        List<ProjectorPerformance.Event> events = ProjectorPerformance.deliveries(random, caseIds, changes,
                Integer.getInteger("extra", 100_000), Integer.getInteger("swaps", 50_000));
        ProjectorTopics topics = ProjectorTopics.unique(Integer.getInteger("partitions", 3)).createEvents();
        ProjectorPerformance.publish(topics.events(), events);
        System.out.printf("data: %,d events over %,d cases, published%n", events.size(), cases);

        double drain = Double.NaN;
        if (Boolean.parseBoolean(System.getProperty("projector", "true"))) {
            drain = events.size() / ProjectorPerformance.projector(topics, caseIds, changes, events.size(), random);
        }

        TestDatabase db = TestDatabase.migrated();
        fillLiveTable(db, events);
        Reader reader = new Reader(db, caseIds);
        Thread readerThread = new Thread(reader, "reader");
        readerThread.start();
        LiveTraffic traffic = new LiveTraffic(db, topics.events(), events, Integer.getInteger("rate", 0));
        long start = System.nanoTime();
        int exit = rebuild(db, "rebuild", "--topics", topics.events(), "--allow-missing-cases", "--allow-lower",
                "--progress", "lines", "--progress-interval", "5s", "--sample", "0");
        double rebuild = (System.nanoTime() - start) / 1e9;
        traffic.close();
        reader.stop.set(true);
        readerThread.join();

        System.out.printf("%nrebuild: exit %d, %,d events over %,d cases in %.1f s (%,.0f events/s), from the start of the "
                + "command to its end (shadow, build, compare, swap)%n", exit, events.size(), cases, rebuild, events.size() / rebuild);
        if (!Double.isNaN(drain)) {
            System.out.printf("projector drain of the same topic: %.1f s; rebuild / drain = %.1f×%n", drain, rebuild / drain);
        }
        System.out.printf("reader (SELECT … FOR SHARE of a random case, every 2 ms): %,d statements, median %.2f ms, "
                + "longest %.1f ms%n", reader.count, reader.median() / 1e6, reader.longest / 1e6);
        traffic.report();
        System.out.printf("machine: %d processors, %d MiB max heap, Java %s%n", Runtime.getRuntime().availableProcessors(),
                Runtime.getRuntime().maxMemory() >> 20, System.getProperty("java.version"));
        System.exit(0);
    }

    /** The final row of every case, as the projector would leave it; every hundredth at an inflated revision. */
    private static void fillLiveTable(TestDatabase db, List<ProjectorPerformance.Event> events) {
        Map<UUID, ProjectorPerformance.Event> last = new HashMap<>();
        for (ProjectorPerformance.Event e : events) {
            last.merge(e.caseId(), e, (a, b) -> b.revision() > a.revision() ? b : a);
        }
        StringBuilder rows = new StringBuilder();
        int n = 0;
        for (ProjectorPerformance.Event e : last.values()) {
            long revision = n++ % 100 == 0 ? e.revision() + 50 : e.revision();
            rows.append(e.caseId()).append('\t').append(e.worker()).append('\t').append(e.supervisor()).append('\t')
                    .append(revision).append('\n');
        }
        DrainWorkload.copy(db, "case_assignments (case_id, assigned_worker_sub, supervisor_sub, assignment_revision)",
                rows.toString());
        db.jdbc().execute("ANALYZE case_assignments");
        System.out.printf("live table: %,d rows, %,d of them inflated%n", last.size(), (last.size() + 99) / 100);
    }

    private static int rebuild(TestDatabase db, String... args) {
        Map<String, Object> properties = new HashMap<>(db.springProperties());
        properties.put("spring.kafka.bootstrap-servers", TestKafka.bootstrapServers());
        properties.put("spring.flyway.enabled", "false");
        properties.put("spring.config.name", "backfill-beside-the-projector");
        properties.put("spring.main.banner-mode", "off");
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("benchmark", properties));
        return SpringApplication.exit(new SpringApplicationBuilder(BackfillApplication.class)
                .environment(environment).web(WebApplicationType.NONE).run(args));
    }

    /** Reads random cases FOR SHARE, each in its own transaction, and keeps every statement's duration. */
    private static final class Reader implements Runnable {

        final AtomicBoolean stop = new AtomicBoolean();
        private final TestDatabase db;
        private final List<UUID> caseIds;
        private final List<Long> durations = new ArrayList<>();
        long count;
        long longest;

        Reader(TestDatabase db, List<UUID> caseIds) {
            this.db = db;
            this.caseIds = caseIds;
        }

        @Override
        public void run() {
            Random random = new Random(7);
            try (Connection connection = db.dataSource().getConnection();
                 PreparedStatement ps = connection.prepareStatement(
                         "SELECT assigned_worker_sub FROM case_assignments WHERE case_id = ? FOR SHARE")) {
                while (!stop.get()) {
                    ps.setObject(1, caseIds.get(random.nextInt(caseIds.size())));
                    long start = System.nanoTime();
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                    }
                    long took = System.nanoTime() - start;
                    durations.add(took);
                    longest = Math.max(longest, took);
                    count++;
                    // A light, steady load: a reader, not a second benchmark competing for the two cores.
                    java.util.concurrent.locks.LockSupport.parkNanos(2_000_000);
                }
            } catch (Exception e) {
                throw new IllegalStateException("the reader failed", e);
            }
        }

        double median() {
            List<Long> sorted = new ArrayList<>(durations);
            sorted.sort(null);
            return sorted.isEmpty() ? 0 : sorted.get(sorted.size() / 2);
        }
    }
}
