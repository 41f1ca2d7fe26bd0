package org.caseassignments.projector;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Refuses to start the stream threads when the dead-letter topic takes smaller records than
 * {@code projector.topics.max-message-bytes}: a dead letter is cut to that setting, and one the topic then
 * refused would fail its task again on every retry, holding the partition behind it. Runs after the topics
 * were created and before Kafka Streams starts (a lower phase). A broker that will not describe the topic
 * (for example, for want of an ACL) is logged, not fatal.
 */
final class DeadLetterTopicCheck extends BeforeStreamsStart {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterTopicCheck.class);

    private final KafkaAdmin kafkaAdmin;
    private final String topic;
    private final int maxMessageBytes;
    DeadLetterTopicCheck(KafkaAdmin kafkaAdmin, String topic, int maxMessageBytes) {
        this.kafkaAdmin = kafkaAdmin;
        this.topic = topic;
        this.maxMessageBytes = maxMessageBytes;
    }

    @Override
    protected void run() {
        Integer takes = topicLimit();
        if (takes != null && takes < maxMessageBytes) {
            throw new IllegalStateException("The dead-letter topic " + topic + " takes records up to " + takes
                    + " bytes (max.message.bytes), less than projector.topics.max-message-bytes (" + maxMessageBytes
                    + "), the size a dead letter is cut to: raise the topic's max.message.bytes to at least "
                    + maxMessageBytes + " or lower CASE_EVENTS_MAX_MESSAGE_BYTES to " + takes);
        }
    }

    private Integer topicLimit() {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        try (Admin admin = Admin.create(kafkaAdmin.getConfigurationProperties())) {
            Map<ConfigResource, Config> configs = admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS);
            ConfigEntry entry = configs.get(resource).get(TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
            return entry == null ? null : Integer.valueOf(entry.value());
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            log.warn("Could not read max.message.bytes of the dead-letter topic {}; make sure it takes records of {} bytes: {}",
                    topic, maxMessageBytes, e.toString());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
