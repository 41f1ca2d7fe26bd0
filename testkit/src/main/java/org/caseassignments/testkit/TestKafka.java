package org.caseassignments.testkit;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * The real Kafka broker of this JVM: the one behind {@code TEST_KAFKA_BOOTSTRAP_SERVERS} if set,
 * otherwise an in-JVM KRaft broker started on first use and stopped when the JVM exits. Tests
 * isolate themselves with {@link #uniqueTopic(String)} names rather than a broker each.
 */
public final class TestKafka {

    /** System property: the embedded broker's {@code group.initial.rebalance.delay.ms} (default 0). */
    public static final String INITIAL_REBALANCE_DELAY = "testkit.kafka.initial-rebalance-delay-ms";

    private static volatile String bootstrapServers;

    private TestKafka() {
    }

    public static String bootstrapServers() {
        String servers = bootstrapServers;
        if (servers == null) {
            synchronized (TestKafka.class) {
                if (bootstrapServers == null) {
                    bootstrapServers = start();
                }
                servers = bootstrapServers;
            }
        }
        return servers;
    }

    private static String start() {
        String external = System.getenv("TEST_KAFKA_BOOTSTRAP_SERVERS");
        if (external != null && !external.isBlank()) {
            return external.trim();
        }
        EmbeddedKafkaKraftBroker broker = new EmbeddedKafkaKraftBroker(1, 1);
        broker.brokerProperties(Map.of(
                "auto.create.topics.enable", "false",
                // Kafka's default (3 s) lets a new group wait for more members before its first assignment.
                // Tests start many small groups and want them at once; a benchmark may ask for the default.
                "group.initial.rebalance.delay.ms", System.getProperty(INITIAL_REBALANCE_DELAY, "0"),
                "transaction.state.log.replication.factor", "1",
                "transaction.state.log.min.isr", "1",
                "offsets.topic.replication.factor", "1"));
        broker.afterPropertiesSet();
        Runtime.getRuntime().addShutdownHook(new Thread(broker::destroy, "embedded-kafka-stop"));
        return broker.getBrokersAsString();
    }

    /** A topic name no other test uses: {@code prefix.<random>}. */
    public static String uniqueTopic(String prefix) {
        return prefix + "." + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Creates the topics (idempotent) with the given partition count; waits at most 30 s. */
    public static void createTopics(int partitions, String... topics) {
        createTopics(Arrays.stream(topics).map(t -> new NewTopic(t, partitions, (short) 1)).toList());
    }

    public static void createTopics(List<NewTopic> topics) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers()))) {
            for (NewTopic topic : topics) {
                try {
                    admin.createTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("Could not create topic " + topic.name() + ": " + e.getCause(), e);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topics", e);
        } catch (TimeoutException e) {
            throw new IllegalStateException("Broker at " + bootstrapServers() + " did not create topics within 30 s", e);
        }
    }
}
