package org.caseassignments.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A real single-node KRaft broker (broker and controller in one process), run as a child process
 * from the Kafka jars on this launcher's classpath. Its log directory lives in the data folder and
 * is formatted once.
 */
final class LocalKafka implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private final ChildProcess process;
    private final int port;

    private LocalKafka(ChildProcess process, int port) {
        this.process = process;
        this.port = port;
    }

    static LocalKafka start(Path dataDir, int port, int controllerPort, String classpath) throws IOException,
            InterruptedException {
        Path logDir = dataDir.resolve("kafka");
        Files.createDirectories(logDir);
        Path config = dataDir.resolve("kafka-server.properties");
        Files.writeString(config, String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@localhost:" + controllerPort,
                "listeners=PLAINTEXT://localhost:" + port + ",CONTROLLER://localhost:" + controllerPort,
                "advertised.listeners=PLAINTEXT://localhost:" + port,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                "log.dirs=" + logDir.toAbsolutePath(),
                "num.partitions=3",
                "auto.create.topics.enable=false",
                "offsets.topic.replication.factor=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "") + "\n");
        Path logs = dataDir.resolve("logs");
        if (!Files.exists(logDir.resolve("meta.properties"))) {
            ChildProcess format = ChildProcess.start("kafka-format", List.of(ChildProcess.java(), "-cp", classpath,
                    "kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(),
                    "-c", config.toAbsolutePath().toString()), Map.of(), logs);
            format.waitFor(Duration.ofSeconds(60));
        }
        ChildProcess broker = ChildProcess.start("kafka", List.of(ChildProcess.java(), "-Xmx512m", "-cp", classpath,
                "kafka.Kafka", config.toAbsolutePath().toString()), Map.of(), logs);
        LocalKafka kafka = new LocalKafka(broker, port);
        kafka.awaitReady();
        return kafka;
    }

    String bootstrapServers() {
        return "localhost:" + port;
    }

    private void awaitReady() throws InterruptedException {
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000))) {
            while (Instant.now().isBefore(deadline)) {
                process.checkAlive();
                try {
                    admin.describeCluster().nodes().get(3, TimeUnit.SECONDS);
                    return;
                } catch (Exception notYet) {
                    TimeUnit.MILLISECONDS.sleep(250);
                }
            }
        }
        throw new IllegalStateException("Kafka broker did not answer on " + bootstrapServers() + " within "
                + READY_TIMEOUT.toSeconds() + " s; see " + process.log());
    }

    @Override
    public void close() {
        process.close();
    }
}
