package org.caseassignments.projector;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.TestDatabase;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.CaseHistory;
import org.caseassignments.projector.testsupport.ProjectionRows;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorProcess;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * Opt-in benchmark (not a test): whether a projector whose heap is small drains a backlog of records that carry
 * large headers, with its byte budget ({@code projector.sink.max-pending-bytes}) and with the budget effectively
 * off. A {@link CaseHistory} of {@code cases} cases (one {@code case.created} each by default, about 10 % of them
 * delivered twice) is published once, each record with {@code header.bytes} of headers; then, per budget, the
 * projector application runs in a JVM of its own ({@link ProjectorProcess}, {@code -Xmx<heap>}, a GC log), against
 * a fresh database and a new application id, until every case is in PostgreSQL at its final assignment, it
 * stops making progress for {@code stall}, or {@code timeout} passes. The broker and PostgreSQL run outside that
 * JVM: the broker in this one, PostgreSQL in processes of its own. See BENCHMARKS.md for the command and results.
 *
 * <p>System properties: {@code cases} (300000), {@code changes} most assignment changes per case after its
 * creation (0), {@code header.bytes} (8192), {@code header.count} (4: headers it is split into, each with a value
 * of its share less 8 bytes, and a key of up to 12 bytes), {@code partitions} (3), {@code heap} (512m),
 * {@code budgets} (96MB,100GB: one run each, in this order), {@code stall} (3m, without a new row or a higher
 * revision), {@code timeout} (20m), {@code full.gc.every} seconds between full collections forced with {@code jcmd
 * GC.run} while it drains (0: none), {@code seed} (26), and any {@code projector.*} or {@code spring.kafka.*}
 * setting for every run.
 */
public final class PendingBytesPerformance {

    private static final AvroEventCodec CODEC = AvroEventCodec.singleObject();
    /** Seconds between forced full collections of the projector's heap while it drains; 0 for none. */
    private static final int FULL_GC_EVERY = Integer.getInteger("full.gc.every", 0);
    private static final String PROGRESS = "SELECT count(*), coalesce(sum(assignment_revision), 0) FROM case_assignments";
    private static final Pattern GC_PAUSE = Pattern.compile("Pause (Young|Full|Remark|Cleanup)[^\\n]*? (\\d+)M->(\\d+)M\\((\\d+)M\\)");

    /** What one run of the projector showed. */
    record Outcome(String budget, boolean drained, boolean alive, double seconds, double firstRowToLast, long rows,
                   long rssPeakKib, Gc gc, Scrape meters, double largestBatch, int outOfMemoryErrors, Path log) {
    }

    /**
     * From the GC log: the largest heap in use before and after any pause; the largest after a full collection
     * (what was live then: a young pause leaves the old generation's garbage in place, so its "after" overstates
     * the live set); how many pauses, full ones, and evacuations that found no free region ("to-space exhausted").
     */
    record Gc(long peakBeforeMib, long peakAfterMib, long liveAfterFullMib, long committedMib, int pauses, int fullPauses,
              int toSpaceExhausted) {
    }

    /** The projector's batches (events in committed batches) and stream-thread replacements, as it reports them. */
    record Scrape(double batches, double events, double largestBatch, double threadsReplaced) {
    }

    /** Exits when it fails too: the embedded broker's threads would keep the JVM alive after {@code main} ended. */
    public static void main(String[] args) {
        try {
            measure();
        } catch (Throwable failure) {
            failure.printStackTrace();
            System.exit(1);
        }
    }

    private static void measure() throws Exception {
        int cases = Integer.getInteger("cases", 300_000);
        int changes = Integer.getInteger("changes", 0);
        int headerBytes = Integer.getInteger("header.bytes", 8 * 1024);
        int headerCount = Integer.getInteger("header.count", 4);
        int partitions = Integer.getInteger("partitions", 3);
        String heap = System.getProperty("heap", "512m");
        List<String> budgets = List.of(System.getProperty("budgets", "96MB,100GB").split(","));
        Duration stall = Duration.parse("PT" + System.getProperty("stall", "3m").toUpperCase());
        Duration timeout = Duration.parse("PT" + System.getProperty("timeout", "20m").toUpperCase());

        long start = System.nanoTime();
        CaseHistory history = CaseHistory.generate(Long.getLong("seed", 26), cases, changes);
        List<ProjectorPerformance.Event> events = new ArrayList<>(history.deliveries.size());
        for (SpecificRecord event : history.deliveries) {
            String key = CaseEvents.caseIdOf(event);
            events.add(new ProjectorPerformance.Event(key, CODEC.encode("case.events", event, false), UUID.fromString(key),
                    null, null, 0));
        }
        ProjectorTopics topics = ProjectorTopics.unique(partitions).createEvents();
        List<org.apache.kafka.common.header.Header> headers = headers(headerBytes, headerCount);
        long headerKeysAndValues = headers.stream().mapToLong(h -> h.key().length() + h.value().length).sum();
        ProjectorPerformance.publish(topics.events(), events, headers);
        System.out.printf("published %,d records over %,d cases, each with %,d headers of %,d bytes of keys and values "
                        + "(%.2f GB in all), in %.0f s%n", events.size(), cases, headers.size(), headerKeysAndValues,
                events.size() * (headerKeysAndValues + 200.0) / 1e9, seconds(start));
        events.clear();

        List<Outcome> outcomes = new ArrayList<>();
        for (String budget : budgets) {
            System.out.printf("%n%s: load %s%n", budget, load());
            Outcome outcome = run(topics, history, budget.strip(), heap, stall, timeout);
            outcomes.add(outcome);
            System.out.println(describe(outcome));
            System.out.printf("load %s%n", load());
        }
        System.out.printf("%nprojector JVM: -Xmx%s; %,d cases, %,d bytes of headers per record; machine: %d processors%n",
                heap, cases, headerBytes, Runtime.getRuntime().availableProcessors());
        outcomes.forEach(o -> System.out.println(describe(o)));
        System.exit(0);
    }

    /**
     * {@code bytes} of headers in {@code count} headers of an equal share each (four by default, as a tracing or
     * routing layer might add; many small ones as a hostile producer might); none for 0.
     */
    private static List<org.apache.kafka.common.header.Header> headers(int bytes, int count) {
        if (bytes == 0) {
            return List.of();
        }
        if (count < 1 || bytes < 8L * count) {
            throw new IllegalArgumentException("header.bytes must be 0 (no headers) or at least 8 a header, not " + bytes
                    + " for " + count);
        }
        Random random = new Random(8);
        List<org.apache.kafka.common.header.Header> headers = new ArrayList<>();
        for (int h = 0; h < count; h++) {
            String key = count <= 4 ? "x-upstream-" + h : Integer.toString(h % 100);
            byte[] value = new byte[Math.max(0, bytes / count - 8)];
            for (int i = 0; i < value.length; i++) {
                value[i] = (byte) ('a' + random.nextInt(26));
            }
            headers.add(new RecordHeader(key, value));
        }
        return headers;
    }

    private static Outcome run(ProjectorTopics topics, CaseHistory history, String budget, String heap, Duration stall,
                               Duration timeout) throws Exception {
        TestDatabase db = TestDatabase.migrated();
        JdbcTemplate jdbc = db.jdbc();
        Map<String, String> properties = ProjectorInstance.properties(db, topics, ProjectorInstance.uniqueApplicationId());
        System.getProperties().stringPropertyNames().stream()
                .filter(name -> name.startsWith("projector.") || name.startsWith("spring.kafka."))
                .forEach(name -> properties.put(name, System.getProperty(name)));
        properties.put("projector.sink.max-pending-bytes", budget);
        int managementPort = freePort();
        properties.put("management.server.port", Integer.toString(managementPort));
        Path gcLog = Files.createTempFile(Path.of("target"), "pending-bytes-" + budget + "-gc-", ".log");

        long started = System.nanoTime();
        long firstRowAt = 0;
        long lastProgressAt = started;
        long rows = 0;
        long revisions = 0;
        long rssPeak = 0;
        Scrape meters = null;
        double largestBatch = 0;
        boolean drained = false;
        int polls = 0;
        try (ProjectorProcess projector = ProjectorProcess.start(ProjectorApplication.class,
                List.of("-Xmx" + heap, "-Xlog:gc:file=" + gcLog), properties)) {
            while (projector.isAlive() && System.nanoTime() - started < timeout.toNanos()
                    && System.nanoTime() - lastProgressAt < stall.toNanos()) {
                // Polled every second: the count costs PostgreSQL a few milliseconds, /proc nothing.
                Thread.sleep(1000);
                rssPeak = Math.max(rssPeak, peakRssKib(projector.pid()));
                if (++polls % 5 == 0) {
                    // Every 5 s: the decaying maximum forgets a batch after about two minutes.
                    largestBatch = largest(largestBatch, scrape(managementPort));
                }
                if (FULL_GC_EVERY > 0 && polls % FULL_GC_EVERY == 0) {
                    fullGc(projector.pid());
                }
                // progress is a new row or a higher revision: a backlog of few cases has all its rows early
                long[] now = jdbc.queryForObject(PROGRESS, (rs, n) -> new long[] {rs.getLong(1), rs.getLong(2)});
                if (now[0] > rows || now[1] > revisions) {
                    lastProgressAt = System.nanoTime();
                    if (firstRowAt == 0) {
                        firstRowAt = lastProgressAt;
                    }
                    rows = now[0];
                    revisions = now[1];
                }
                if (rows == history.oracle.size() && ProjectionRows.projection(jdbc).equals(history.oracle)) {
                    drained = true;
                    break;
                }
            }
            long ended = System.nanoTime();
            boolean alive = projector.isAlive();
            if (alive) {
                meters = scrape(managementPort);
                largestBatch = largest(largestBatch, meters);
            }
            if (drained && !ProjectionRows.projection(jdbc).equals(history.oracle)) {
                throw new IllegalStateException("every case is in PostgreSQL, but not every one at its final assignment");
            }
            String log = Files.readString(projector.log);
            return new Outcome(budget, drained, alive, (ended - started) / 1e9,
                    firstRowAt == 0 ? Double.NaN : (ended - firstRowAt) / 1e9, rows, rssPeak, gc(gcLog), meters,
                    largestBatch, count(log, "OutOfMemoryError"), projector.log);
        }
    }

    /** A full collection of the projector's heap ({@code jcmd GC.run}), so the GC log shows what is live then. */
    private static void fullGc(long pid) throws Exception {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), "GC.run").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        jcmd.waitFor();
    }

    private static String describe(Outcome o) {
        return String.format("budget %s: %s after %.1f s (%.1f s from the first row); %,d cases in PostgreSQL; "
                        + "process %s; peak RSS %,d MiB; heap before/after a pause at most %,d/%,d MiB of %,d MiB committed, "
                        + "%d pauses, %d full (heap after one at most %,d MiB), %d with to-space exhausted; %s; stream threads replaced %s; OutOfMemoryError in the log %d times (log: %s)",
                o.budget(), o.drained() ? "drained, every case at its final assignment" : "NOT drained", o.seconds(),
                o.firstRowToLast(), o.rows(), o.alive() ? "alive" : "GONE", o.rssPeakKib() >> 10, o.gc().peakBeforeMib(),
                o.gc().peakAfterMib(), o.gc().committedMib(), o.gc().pauses(), o.gc().fullPauses(), o.gc().liveAfterFullMib(),
                o.gc().toSpaceExhausted(),
                o.meters() == null ? "batches unknown (no answer)"
                        : String.format("%,.0f batches, %,.0f events per batch on average, largest %,.0f",
                        o.meters().batches(), o.meters().events() / Math.max(1, o.meters().batches()), o.largestBatch()),
                o.meters() == null ? "unknown" : String.format("%.0f", o.meters().threadsReplaced()),
                o.outOfMemoryErrors(), o.log());
    }

    /** The peak resident set size of a process so far ({@code VmHWM}), 0 if it cannot be read (not Linux, gone). */
    private static long peakRssKib(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("\\D", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // the process ended meanwhile, or this is not Linux
        }
        return 0;
    }

    private static Gc gc(Path gcLog) throws IOException {
        long before = 0;
        long after = 0;
        long liveAfterFull = 0;
        long committed = 0;
        int pauses = 0;
        int full = 0;
        String log = Files.readString(gcLog);
        Matcher pause = GC_PAUSE.matcher(log);
        while (pause.find()) {
            pauses++;
            before = Math.max(before, Long.parseLong(pause.group(2)));
            after = Math.max(after, Long.parseLong(pause.group(3)));
            committed = Math.max(committed, Long.parseLong(pause.group(4)));
            if (pause.group(1).equals("Full")) {
                full++;
                liveAfterFull = Math.max(liveAfterFull, Long.parseLong(pause.group(3)));
            }
        }
        return new Gc(before, after, liveAfterFull, committed, pauses, full, count(log, "To-space exhausted"));
    }

    /**
     * The batch meter and the thread replacements from the projector's Prometheus scrape; null when it does not
     * answer within 5 s. The largest batch is the largest of the last two minutes (Micrometer's decaying maximum).
     */
    private static Scrape scrape(int port) {
        try {
            String body = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build().send(
                    HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/actuator/prometheus"))
                            .timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            return new Scrape(sample(body, "case_assignments_batch_size_count"), sample(body, "case_assignments_batch_size_sum"),
                    sample(body, "case_assignments_batch_size_max"), sample(body, "case_assignments_stream_threads_replaced_total"));
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** The larger of {@code largest} and the scrape's largest batch, if the projector answered with one. */
    private static double largest(double largest, Scrape scrape) {
        return scrape == null || Double.isNaN(scrape.largestBatch()) ? largest : Math.max(largest, scrape.largestBatch());
    }

    private static double sample(String scrape, String name) {
        Matcher value = Pattern.compile("^" + name + "(\\{[^}]*})? (\\S+)$", Pattern.MULTILINE).matcher(scrape);
        return value.find() ? Double.parseDouble(value.group(2)) : Double.NaN;
    }

    private static int count(String text, String word) {
        int count = 0;
        for (int at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + word.length())) {
            count++;
        }
        return count;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static String load() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).strip();
    }

    private static double seconds(long since) {
        return (System.nanoTime() - since) / 1e9;
    }
}
