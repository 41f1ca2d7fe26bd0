package org.caseassignments.local;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.caseassignments.schemas.topics.CaseTopics;
import org.postgresql.PGConnection;

/**
 * What the runbook commands of docs/operations.md act on, set up on the local stack as an operator finds it and
 * checked after each command, so that a command that exits 0 without doing what its runbook says fails too: the case
 * ({@code CASE_ID}: the sample case), the case service's snapshot ({@code SNAPSHOT}: the projection's rows), a stopped
 * projector's consumer group ({@code PROJECTOR_APPLICATION_ID}: a group of its own with committed offsets and no
 * member, so that resetting it leaves the stack's projector alone), a session to end ({@code PID}: a session of its own
 * running a long statement, new for each command that names it), and a rebuild's shadow left behind; and Kafka's
 * command-line scripts on the PATH, as the distribution's {@code bin/} runs them, from the {@code kafka-tools} module.
 */
final class RunbookSubjects implements AutoCloseable {

    /** Kafka's scripts the runbooks run, and the class each runs (Kafka's {@code bin/}, through kafka-run-class.sh). */
    private static final Map<String, String> KAFKA_SCRIPTS = Map.of(
            "kafka-consumer-groups.sh", "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
            "kafka-get-offsets.sh", "org.apache.kafka.tools.GetOffsetShell",
            "kafka-console-consumer.sh", "org.apache.kafka.tools.consumer.ConsoleConsumer");
    /** How long a session named by {@code PID} may go on with its statement after the command that ends it. */
    private static final Duration ENDED_WITHIN = Duration.ofSeconds(30);
    private static final String SHADOW = "case_assignments_rebuild";

    private final String jdbcUrl;
    private final String bootstrapServers;
    private final Path dir;
    private final String group = "runbook-stopped-projector-" + UUID.randomUUID();
    private final ExecutorService statements = Executors.newCachedThreadPool();
    private Session session;

    /** A session whose pid a command is given, and its long statement, which ends with the error that ended it. */
    private record Session(Connection connection, long pid, Future<SQLException> statement) {
    }

    private RunbookSubjects(String jdbcUrl, String bootstrapServers, Path dir) {
        this.jdbcUrl = jdbcUrl;
        this.bootstrapServers = bootstrapServers;
        this.dir = dir;
    }

    /** Writes the snapshot and the scripts under {@code dir} and commits the stopped group's offsets at the log's end. */
    static RunbookSubjects prepare(String jdbcUrl, String bootstrapServers, Path dir) throws IOException, SQLException {
        RunbookSubjects subjects = new RunbookSubjects(jdbcUrl, bootstrapServers, Files.createDirectories(dir));
        subjects.writeSnapshot();
        subjects.writeKafkaScripts();
        try (KafkaConsumer<byte[], byte[]> consumer = subjects.consumer()) {
            List<TopicPartition> partitions = partitions(consumer);
            consumer.assign(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            if (ends.values().stream().mapToLong(Long::longValue).sum() == 0) {
                throw new IllegalStateException("the stack's " + CaseTopics.DEFAULT_EVENTS + " is empty: no offset to reset");
            }
            Map<TopicPartition, OffsetAndMetadata> committed = new HashMap<>();
            ends.forEach((partition, end) -> committed.put(partition, new OffsetAndMetadata(end)));
            consumer.commitSync(committed);
        }
        return subjects;
    }

    /** The variables every command gets, and the PATH with Kafka's scripts in front of {@code path}. */
    Map<String, String> environment(String path) {
        Map<String, String> environment = new LinkedHashMap<>();
        environment.put("CASE_ID", SampleCase.CASE_ID.toString());
        environment.put("SNAPSHOT", dir.resolve("snapshot.csv").toString());
        environment.put("PROJECTOR_APPLICATION_ID", group);
        environment.put("PATH", dir.resolve("bin") + (path == null ? "" : java.io.File.pathSeparator + path));
        return environment;
    }

    /** What {@code script} acts on, set up now: the variables it names beyond {@link #environment}. */
    Map<String, String> before(String script) throws SQLException {
        if (script.contains("DROP TABLE " + SHADOW)) {
            try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                // what a rebuild killed before its end leaves: its shadow, like the projection
                statement.execute("CREATE TABLE " + SHADOW + " (LIKE case_assignments INCLUDING ALL)");
            }
        }
        if (!script.contains("$PID") && !script.contains("${PID")) {
            return Map.of();
        }
        Connection connection = connect();
        long pid;
        try (Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT pg_backend_pid()")) {
            row.next();
            pid = row.getLong(1);
        }
        Future<SQLException> running = statements.submit(() -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute("SELECT pg_sleep(300)");
                return null;
            } catch (SQLException ended) {
                return ended;
            }
        });
        session = new Session(connection, pid, running);
        await().atMost(ENDED_WITHIN).until(() -> active(pid));
        return Map.of("PID", Long.toString(pid));
    }

    /**
     * What {@code script} should have done and did not, or null; and the stack as the next command expects it: a
     * rebuild's swap keeps the table it replaced, which refuses every rebuild after it until dropped (as
     * {@code rebuild --drop-previous} drops it).
     */
    String after(String script) throws SQLException, InterruptedException {
        if (script.contains("--from-snapshot")) {
            try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS case_assignments_previous");
            }
        }
        if (script.contains("DROP TABLE " + SHADOW)) {
            try (Connection connection = connect(); Statement statement = connection.createStatement();
                 ResultSet row = statement.executeQuery("SELECT to_regclass('" + SHADOW + "') IS NULL")) {
                row.next();
                if (!row.getBoolean(1)) {
                    return "the shadow " + SHADOW + " is still there";
                }
            }
        }
        if (session == null) {
            return null;
        }
        Session ending = session;
        session = null;
        try {
            SQLException ended = ending.statement().get(ENDED_WITHIN.toSeconds(), TimeUnit.SECONDS);
            return ended != null ? null : "the statement of session " + ending.pid() + " ran to its end";
        } catch (TimeoutException stillRunning) {
            return "session " + ending.pid() + " still ran its statement " + ENDED_WITHIN.toSeconds() + " s after";
        } catch (java.util.concurrent.ExecutionException e) {
            return "session " + ending.pid() + ": " + e.getCause();
        } finally {
            end(ending);
        }
    }

    /** Whether the stopped group's offsets are all at the log start, as the runbook's reset sets them; null if so. */
    String groupAtLogStart() {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
            List<TopicPartition> partitions = partitions(consumer);
            Map<TopicPartition, Long> starts = consumer.beginningOffsets(partitions);
            Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(new java.util.HashSet<>(partitions));
            Map<TopicPartition, Long> notAtStart = new HashMap<>();
            starts.forEach((partition, start) -> {
                OffsetAndMetadata offset = committed.get(partition);
                if (offset == null || offset.offset() != start) {
                    notAtStart.put(partition, offset == null ? null : offset.offset());
                }
            });
            return notAtStart.isEmpty() ? null : "the group " + group + " is not at the log start: " + notAtStart
                    + " (log starts " + starts + ")";
        }
    }

    @Override
    public void close() throws SQLException {
        if (session != null) {
            end(session);
        }
        statements.shutdownNow();
    }

    private void end(Session ending) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("SELECT pg_terminate_backend(" + ending.pid() + ")");
        }
        ending.connection().close();
    }

    private boolean active(long pid) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
             ResultSet row = statement.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE pid = " + pid
                     + " AND state = 'active' AND query LIKE 'SELECT pg_sleep%'")) {
            row.next();
            return row.getInt(1) == 1;
        }
    }

    /** The projection's rows as the case service's snapshot file, in the CSV {@code backfill assignments} reads. */
    private void writeSnapshot() throws IOException, SQLException {
        try (Connection connection = connect(); Writer snapshot = Files.newBufferedWriter(dir.resolve("snapshot.csv"))) {
            connection.unwrap(PGConnection.class).getCopyAPI().copyOut("COPY (SELECT case_id, assigned_worker_sub, "
                    + "supervisor_sub, assignment_revision, jurisdiction FROM case_assignments ORDER BY case_id) "
                    + "TO STDOUT WITH (FORMAT csv, HEADER)", snapshot);
        }
    }

    private void writeKafkaScripts() throws IOException {
        Path bin = Files.createDirectories(dir.resolve("bin"));
        String classpath = testClasspath();
        for (var script : KAFKA_SCRIPTS.entrySet()) {
            try {
                Class.forName(script.getValue(), false, RunbookSubjects.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException(script.getKey() + " runs " + script.getValue() + ", which is not on the "
                        + "test classpath: the local module's test dependency org.apache.kafka:kafka-tools is missing", e);
            }
            Path file = bin.resolve(script.getKey());
            Files.writeString(file, "#!/bin/sh\nexec " + quoted(ChildProcess.java()) + " -Xmx256m -cp " + quoted(classpath)
                    + " " + script.getValue() + " \"$@\"\n");
            if (!file.toFile().setExecutable(true)) {
                throw new IOException("cannot make " + file + " executable");
            }
        }
    }

    /** This test JVM's classpath as Maven gave it: surefire's property, which a manifest-only booter jar hides behind. */
    static String testClasspath() {
        return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    }

    private KafkaConsumer<byte[], byte[]> consumer() {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.GROUP_ID_CONFIG, group, ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false),
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static List<TopicPartition> partitions(KafkaConsumer<byte[], byte[]> consumer) {
        return consumer.partitionsFor(CaseTopics.DEFAULT_EVENTS).stream()
                .map(info -> new TopicPartition(info.topic(), info.partition())).toList();
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(jdbcUrl, "postgres", "postgres");
    }

    private static String quoted(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }
}
