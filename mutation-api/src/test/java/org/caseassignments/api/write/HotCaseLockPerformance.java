package org.caseassignments.api.write;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import org.caseassignments.api.MutationApiApplication;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.KeepAliveHttp;
import org.caseassignments.api.testsupport.TestApplication;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Opt-in benchmark (never run by the build; results in BENCHMARKS.md). Case-lock fairness: every API write
 * on a case's rows holds the case's projection row {@code FOR SHARE} until it commits, and PostgreSQL can let
 * new share lockers pass a waiting writer. Here N API clients PATCH kinship options of one hot case (each its
 * own row, so they contend only on the case's hold) while the projector's writer ({@link AssignmentWriter},
 * in a transaction of its own, as the projector's sink runs it) applies a new revision of that case every
 * {@code bench.apply-every-ms} (200); the apply latency is what an upstream reassignment waits for.
 * System properties: {@code bench.writers} (8,32,128), {@code bench.seconds} (20 per writer count).
 */
public final class HotCaseLockPerformance {

    private static final List<Integer> WRITERS = Arrays.stream(System.getProperty("bench.writers", "8,32,128").split(","))
            .map(Integer::parseInt).toList();
    private static final Duration RUN = Duration.ofSeconds(Long.getLong("bench.seconds", 20));
    private static final long APPLY_EVERY_MS = Long.getLong("bench.apply-every-ms", 200);

    private HotCaseLockPerformance() {
    }

    public static void main(String[] args) throws Exception {
        int most = WRITERS.stream().mapToInt(Integer::intValue).max().orElse(8);
        TestDatabase db = TestDatabase.migrated();
        JdbcTemplate jdbc = db.jdbc();
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        List<UUID> rows = new ArrayList<>();
        for (int i = 0; i < most; i++) {
            rows.add(Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc));
        }
        String[] settings = TestApplication.arguments(db,
                "--spring.datasource.hikari.maximum-pool-size=" + (most + 2),
                "--server.tomcat.threads.max=" + (most + 8), "--server.tomcat.max-connections=" + (most + 64),
                "--logging.level.root=warn");
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(MutationApiApplication.class).run(settings)) {
            int port = Integer.parseInt(app.getEnvironment().getProperty("local.server.port"));
            System.out.println("Load average at start: " + Files.readString(Path.of("/proc/loadavg")).strip());
            System.out.println("| API writers on one case | applies | apply p50 ms | p99 ms | max ms | API writes/s | load average after |");
            System.out.println("|---|---|---|---|---|---|---|");
            long revision = 2;
            for (int writers : WRITERS) {
                revision = measure(db, port, caseId, rows.subList(0, writers), revision);
            }
        }
        System.exit(0);
    }

    private static long measure(TestDatabase db, int port, UUID caseId, List<UUID> rows, long firstRevision)
            throws Exception {
        String token = TestTokens.caseworker("w-1").token();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong written = new AtomicLong();
        ExecutorService clients = Executors.newFixedThreadPool(rows.size());
        for (UUID row : rows) {
            clients.submit(() -> write(port, token, row, running, written));
        }
        JdbcTemplate projector = new JdbcTemplate(db.dataSource());
        TransactionTemplate transaction = new TransactionTemplate(new DataSourceTransactionManager(db.dataSource()));
        AssignmentWriter writer = new AssignmentWriter(projector);
        List<Long> micros = new ArrayList<>();
        long revision = firstRevision;
        long end = System.nanoTime() + RUN.toNanos();
        long writtenBefore = written.get();
        while (System.nanoTime() < end) {
            AssignmentUpdate update = AssignmentUpdate.changed(caseId, "w-1", "s-1", revision++);
            long start = System.nanoTime();
            transaction.executeWithoutResult(status -> writer.apply(List.of(update)));
            micros.add((System.nanoTime() - start) / 1_000);
            Thread.sleep(APPLY_EVERY_MS);
        }
        long writes = written.get() - writtenBefore;
        running.set(false);
        clients.shutdown();
        clients.awaitTermination(30, TimeUnit.SECONDS);
        micros.sort(null);
        System.out.printf("| %d | %d | %.1f | %.1f | %.1f | %.0f | %s |%n", rows.size(), micros.size(),
                percentile(micros, 0.50), percentile(micros, 0.99), micros.get(micros.size() - 1) / 1000.0,
                writes / (double) RUN.toSeconds(), Files.readString(Path.of("/proc/loadavg")).strip());
        return revision;
    }

    /** PATCHes its own row's name over and over; a 412 (the projector moved the row) re-reads the tag. */
    private static Void write(int port, String token, UUID row, AtomicBoolean running, AtomicLong written) {
        String path = "/kinship-options/" + row;
        try (KeepAliveHttp http = KeepAliveHttp.open(port)) {
            String etag = http.exchange("GET", path, token, Map.of(), null).header("etag");
            int n = 0;
            while (running.get()) {
                KeepAliveHttp.Response answer = http.exchange("PATCH", path, token, Map.of("If-Match", etag),
                        "{\"relative_name\": \"Relative " + n++ + "\"}");
                if (answer.status() == 200) {
                    written.incrementAndGet();
                    etag = answer.header("etag");
                } else {
                    etag = http.exchange("GET", path, token, Map.of(), null).header("etag");
                }
            }
        } catch (Exception e) {
            if (running.get()) {
                throw new IllegalStateException("writer of " + row + " failed", e);
            }
        }
        return null;
    }

    private static double percentile(List<Long> sorted, double p) {
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p * sorted.size()) - 1)) / 1000.0;
    }
}
