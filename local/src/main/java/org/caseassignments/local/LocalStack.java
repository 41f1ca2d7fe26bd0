package org.caseassignments.local;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Starts the whole service locally on embedded defaults and prints how to use it. Everything is
 * stopped, in reverse order, on Ctrl-C.
 */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run case-assignments locally: a KRaft broker, PostgreSQL, the projector and the mutation API.")
public final class LocalStack implements Callable<Integer> {

    static final String READY_LINE = "case-assignments is ready";
    /** A service's management port is its own port + 1000 unless given: 8080 → 9080, 8081 → 9081. */
    private static final int MANAGEMENT_OFFSET = 1000;

    @Option(names = "--data-dir", defaultValue = ".local-data", description = "Where data, keys and logs live (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Option(names = "--fresh", description = "Delete the data folder first and start from nothing.")
    boolean fresh;

    @Option(names = "--demo", description = "Publish a realistic stream of case events (reordered, duplicated) and show the projection converge.")
    boolean demo;

    @Option(names = "--print-tokens", description = "Also print the bearer tokens themselves (they are always in <data-dir>/tokens.env).")
    boolean printTokens;

    @Option(names = "--api-port", defaultValue = "8080", description = "Mutation API port (default: ${DEFAULT-VALUE}).")
    int apiPort;

    @Option(names = "--projector-port", defaultValue = "8081", description = "Projector probes port, /livez and /readyz (default: ${DEFAULT-VALUE}); its metrics are on the projector management port.")
    int projectorPort;

    @Option(names = "--api-management-port", description = "Mutation API management port: health details, metrics, "
            + "the Prometheus scrape (default: the API port + 1000, 9080).")
    Integer apiManagementPort;

    @Option(names = "--projector-management-port", description = "Projector management port: health details, metrics, "
            + "the Prometheus scrape (default: the projector port + 1000, 9081).")
    Integer projectorManagementPort;

    @Option(names = "--observe", description = "Also run Prometheus (PROMETHEUS, or prometheus on the PATH) on a free port, "
            + "scraping both services with the alerting rules of ops/prometheus, to see the alerts evaluate, and a "
            + "Pushgateway (PUSHGATEWAY, or prometheus-pushgateway beside it or on the PATH) that the backfill jobs "
            + "push to (source <data-dir>/jobs.env); without them installed, say so and go on.")
    boolean observe;

    @Option(names = "--postgres-port", defaultValue = "54329", description = "PostgreSQL port (default: ${DEFAULT-VALUE}).")
    int postgresPort;

    @Option(names = "--kafka-port", defaultValue = "19092", description = "Kafka broker port; the controller uses the next one (default: ${DEFAULT-VALUE}).")
    int kafkaPort;

    @Option(names = "--root", defaultValue = ".", description = "The repository root, where the built jars are (default: ${DEFAULT-VALUE}).")
    Path root;

    private final Deque<AutoCloseable> running = new ArrayDeque<>();
    /** Set once the stack stops (Ctrl-C, SIGTERM): whatever starts after that is stopped at once. */
    private boolean stopping;
    private final PrintStream out = System.out;
    private final Instant started = Instant.now();

    public static void main(String[] args) {
        System.exit(new CommandLine(new LocalStack()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopAll();
            stopped.countDown();
        }, "local-stack-stop"));

        if (fresh) {
            deleteRecursively(dataDir);
        }
        Files.createDirectories(dataDir);
        Path logs = dataDir.resolve("logs");
        String classpath = System.getProperty("java.class.path");

        step("starting PostgreSQL on port " + postgresPort);
        LocalDatabase database = track(LocalDatabase.start(dataDir, postgresPort));
        step("starting Kafka (KRaft) on port " + kafkaPort);
        LocalKafka kafka = track(LocalKafka.start(dataDir, kafkaPort, kafkaPort + 1, classpath));
        LocalTokens tokens = LocalTokens.loadOrCreate(dataDir);

        // Both services start at once: each migrates the database at startup, and Flyway's lock lets
        // them do so in any order (decision 1).
        step("starting the projector and the mutation API on port " + apiPort);
        ServiceProcess projector = track(ServiceProcess.start(root, "projector",
                projectorEnvironment(database, kafka), projectorPort, logs));
        ServiceProcess api = track(ServiceProcess.start(root, "mutation-api",
                apiEnvironment(database, tokens, EtagSecret.loadOrCreate(dataDir)), apiPort, logs));
        projector.awaitReady();
        step("projector ready");
        api.awaitReady();
        step("mutation API ready");
        Observed observed = observe ? observe(System.getenv(), logs) : Observed.NONE;
        Path jobsFile = writeJobsEnvironment(database, kafka, observed.pushgateway());

        step("publishing the sample case");
        SampleCase.publish(kafka.bootstrapServers(), database);
        Map<String, String> minted = tokens.all();
        Path tokensFile = dataDir.resolve("tokens.env");
        StringBuilder exports = new StringBuilder();
        minted.forEach((name, token) -> exports.append("export ").append(name).append('=').append(token).append('\n'));
        Files.writeString(tokensFile, exports);

        new Banner(out, "http://localhost:" + apiPort, "http://localhost:" + projectorPort, tokensFile, minted, dataDir,
                printTokens, database.durabilityWarning(), observed.prometheus(), observed.pushgateway(), jobsFile)
                .print(Duration.between(started, Instant.now()));
        out.println(READY_LINE);
        out.flush();

        if (demo) {
            new Demo(out, kafka.bootstrapServers(), database).run();
        }
        stopped.await();
        return 0;
    }

    /** The addresses of what {@code --observe} started, each null when it did not run. */
    record Observed(String prometheus, String pushgateway) {
        static final Observed NONE = new Observed(null, null);
    }

    /**
     * Prometheus's address once it is ready, and the Pushgateway's it scrapes; each null when none is installed or it
     * did not get ready (either said plainly, and the stack goes on). Each process is the stack's to stop from the
     * moment it starts, so a stack stopped while Prometheus starts leaves neither running; a Pushgateway whose
     * Prometheus did not get ready is stopped at once, since nothing would scrape it.
     *
     * @param environment where {@code PROMETHEUS}, {@code PUSHGATEWAY} and {@code PATH} are read
     */
    Observed observe(Map<String, String> environment, Path logs) throws IOException, InterruptedException {
        var binary = LocalPrometheus.binary(environment);
        if (binary.isEmpty()) {
            step("--observe: Prometheus is not installed (set " + LocalPrometheus.BINARY_VARIABLE
                    + " or put prometheus on the PATH, e.g. from Debian's prometheus package); going on without it");
            return Observed.NONE;
        }
        int pushgatewayPort = freePort();
        Optional<ServiceProcess> pushgateway = startPushgateway(environment, binary.get(), pushgatewayPort, logs);
        Integer scraped = pushgateway.isPresent() ? pushgatewayPort : null;
        int port = freePort();
        Optional<ServiceProcess> prometheus = Optional.empty();
        try {
            step("starting Prometheus (" + binary.get() + ") on port " + port);
            Map<String, Integer> targets = new LinkedHashMap<>();
            targets.put("projector", projectorManagementPort());
            targets.put("mutation-api", apiManagementPort());
            prometheus = LocalPrometheus.startReady(binary.get(), root, dataDir, port, targets, scraped, logs, this::track,
                    this::step);
        } finally {
            // a Pushgateway that nothing scrapes would only hold its port and its persistence file
            if (prometheus.isEmpty()) {
                pushgateway.ifPresent(this::stop);
            }
        }
        if (prometheus.isEmpty()) {
            return Observed.NONE;
        }
        step("Prometheus ready");
        return new Observed("http://localhost:" + port, scraped == null ? null : "localhost:" + scraped);
    }

    /** The Pushgateway, ready; empty when none is installed or it did not get ready. */
    private Optional<ServiceProcess> startPushgateway(Map<String, String> environment, Path prometheus, int port, Path logs)
            throws IOException, InterruptedException {
        var binary = LocalPrometheus.pushgatewayBinary(environment, prometheus);
        if (binary.isEmpty()) {
            step("--observe: no Pushgateway is installed (set " + LocalPrometheus.PUSHGATEWAY_VARIABLE
                    + ", or install Debian's prometheus-pushgateway package); the jobs dashboard stays empty");
            return Optional.empty();
        }
        step("starting the Pushgateway (" + binary.get() + ") on port " + port);
        return LocalPrometheus.startPushgateway(binary.get(), dataDir, port, logs, this::track, this::step);
    }

    /**
     * {@code jobs.env} in the data folder: what a backfill job ({@code ./backfill-cli}) needs to reach this stack, and
     * to push its meters to the Pushgateway when one runs.
     */
    private Path writeJobsEnvironment(LocalDatabase database, LocalKafka kafka, String pushgateway) throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("DATABASE_URL", database.jdbcUrl());
        env.put("DATABASE_USERNAME", database.username());
        env.put("DATABASE_PASSWORD", database.password());
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers());
        if (pushgateway != null) {
            env.put("BACKFILL_PUSHGATEWAY_ENABLED", "true");
            env.put("BACKFILL_PUSHGATEWAY_ADDRESS", pushgateway);
        }
        StringBuilder exports = new StringBuilder();
        env.forEach((name, value) -> exports.append("export ").append(name).append("='")
                .append(value.replace("'", "'\\''")).append("'\n"));
        Path file = dataDir.resolve("jobs.env");
        Files.writeString(file, exports);
        return file;
    }

    private static int freePort() throws IOException {
        try (ServerSocket free = new ServerSocket(0)) {
            return free.getLocalPort();
        }
    }

    private int projectorManagementPort() {
        return projectorManagementPort != null ? projectorManagementPort : projectorPort + MANAGEMENT_OFFSET;
    }

    private int apiManagementPort() {
        return apiManagementPort != null ? apiManagementPort : apiPort + MANAGEMENT_OFFSET;
    }

    private Map<String, String> projectorEnvironment(LocalDatabase database, LocalKafka kafka) {
        Map<String, String> env = new LinkedHashMap<>(databaseEnvironment(database));
        env.put("KAFKA_BOOTSTRAP_SERVERS", kafka.bootstrapServers());
        env.put("PROJECTOR_PORT", Integer.toString(projectorPort));
        env.put("PROJECTOR_MANAGEMENT_PORT", Integer.toString(projectorManagementPort()));
        env.put("PROJECTOR_STATE_DIR", dataDir.resolve("projector-state").toAbsolutePath().toString());
        env.putAll(LocalPrometheus.SERVICE_ENVIRONMENT);
        return env;
    }

    private Map<String, String> apiEnvironment(LocalDatabase database, LocalTokens tokens, String etagSecret) {
        Map<String, String> env = new LinkedHashMap<>(databaseEnvironment(database));
        env.put("MUTATION_API_PORT", Integer.toString(apiPort));
        env.put("MUTATION_API_MANAGEMENT_PORT", Integer.toString(apiManagementPort()));
        env.put("AUTH_ISSUER", LocalTokens.ISSUER);
        env.put("AUTH_AUDIENCE", LocalTokens.AUDIENCE);
        env.put("AUTH_PUBLIC_KEY_LOCATION", "file:" + tokens.publicKeyPem().toAbsolutePath());
        env.put("AUTH_ALLOW_LOCAL_ISSUER", "true");
        env.put("API_ETAG_SECRET", etagSecret);
        env.putAll(LocalPrometheus.SERVICE_ENVIRONMENT);
        return env;
    }

    private static Map<String, String> databaseEnvironment(LocalDatabase database) {
        return Map.of(
                "DATABASE_URL", database.jdbcUrl(),
                "DATABASE_USERNAME", database.username(),
                "DATABASE_PASSWORD", database.password(),
                // a person reads these logs: the human-readable pattern instead of the JSON lines of production
                "LOG_FORMAT", "");
    }

    /** The stack stops {@code resource} with the rest; once it is stopping, at once (and the step fails). */
    private <T extends AutoCloseable> T track(T resource) {
        synchronized (running) {
            if (!stopping) {
                running.push(resource);
                return resource;
            }
        }
        close(resource);
        throw new IllegalStateException("the stack is stopping");
    }

    /** Stops one of the stack's processes before the rest, such as a Pushgateway whose Prometheus did not start. */
    private void stop(AutoCloseable resource) {
        synchronized (running) {
            running.remove(resource);
        }
        close(resource);
    }

    private static void close(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            System.err.println("while stopping: " + e);
        }
    }

    /** What the shutdown hook does: stops everything started, in reverse order, and whatever starts afterwards. */
    void stopAll() {
        synchronized (running) {
            stopping = true;
            while (!running.isEmpty()) {
                close(running.pop());
            }
        }
    }

    /** Each line says when, since the start, the step began: where the time to ready goes. */
    private void step(String what) {
        out.printf(Locale.ROOT, "  %5.1f s  %s%n", Duration.between(started, Instant.now()).toMillis() / 1000.0, what);
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
