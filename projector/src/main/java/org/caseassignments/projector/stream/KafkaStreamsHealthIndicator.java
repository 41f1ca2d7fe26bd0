package org.caseassignments.projector.stream;

import org.apache.kafka.streams.KafkaStreams;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/** UP while the Streams instance runs or rebalances; DOWN before it started, after it stopped, or in error. */
final class KafkaStreamsHealthIndicator implements HealthIndicator {

    private final StreamsBuilderFactoryBean factoryBean;

    KafkaStreamsHealthIndicator(StreamsBuilderFactoryBean factoryBean) {
        this.factoryBean = factoryBean;
    }

    @Override
    public Health health() {
        KafkaStreams streams = factoryBean.getKafkaStreams();
        if (streams == null) {
            return Health.down().withDetail("state", "NOT_STARTED").build();
        }
        KafkaStreams.State state = streams.state();
        Health.Builder health = state.isRunningOrRebalancing() ? Health.up() : Health.down();
        return health.withDetail("state", state.name())
                .withDetail("threads", streams.metadataForLocalThreads().size())
                .build();
    }
}
