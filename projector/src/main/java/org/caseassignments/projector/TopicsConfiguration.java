package org.caseassignments.projector;

import java.util.ArrayList;
import java.util.List;

import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.TopicBuilder;
import org.springframework.kafka.core.KafkaAdmin;

/** Creates the projector's topics at startup when they do not exist (existing topics are left as they are). */
@Configuration(proxyBeanMethods = false)
class TopicsConfiguration {

    @Bean
    KafkaAdmin.NewTopics projectorTopics(ProjectorProperties properties) {
        List<NewTopic> topics = new ArrayList<>();
        for (String events : properties.topics().events()) {
            topics.add(TopicBuilder.name(events).partitions(properties.partitions()).build());
        }
        if (properties.publishAssignments()) {
            topics.add(TopicBuilder.name(properties.topics().assignments()).partitions(properties.partitions())
                    .config(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT).build());
        }
        topics.add(TopicBuilder.name(properties.topics().deadLetter()).partitions(properties.partitions()).build());
        return new KafkaAdmin.NewTopics(topics.toArray(NewTopic[]::new));
    }
}
