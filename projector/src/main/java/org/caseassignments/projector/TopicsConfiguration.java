package org.caseassignments.projector;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Creates the projector's topics at startup when they do not exist (existing topics are left as they are),
 * each taking records up to {@code projector.topics.max-message-bytes}, the size the producer may send.
 */
@Configuration(proxyBeanMethods = false)
class TopicsConfiguration {

    @Bean
    KafkaAdmin.NewTopics projectorTopics(ProjectorProperties properties) {
        List<NewTopic> topics = new ArrayList<>();
        String maxMessageBytes = Integer.toString(properties.topics().maxMessageBytes());
        for (String events : properties.topics().events()) {
            topics.add(TopicBuilder.name(events).partitions(properties.partitions())
                    .config(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, maxMessageBytes).build());
        }
        if (properties.publishAssignments()) {
            topics.add(TopicBuilder.name(properties.topics().assignments()).partitions(properties.partitions())
                    .config(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)
                    .config(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, maxMessageBytes).build());
        }
        topics.add(TopicBuilder.name(properties.topics().deadLetter()).partitions(properties.partitions())
                .config(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, maxMessageBytes).build());
        return new KafkaAdmin.NewTopics(topics.toArray(NewTopic[]::new));
    }

    @Bean
    DeadLetterTopicCheck deadLetterTopicCheck(KafkaAdmin kafkaAdmin, ProjectorProperties properties) {
        return new DeadLetterTopicCheck(kafkaAdmin, properties.topics().deadLetter(), properties.topics().maxMessageBytes());
    }
}
