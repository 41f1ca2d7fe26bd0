package org.caseassignments.projector.stream;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.streams.KafkaStreams;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * A task's input backlog as its consumer sees it: the consumer's {@code records-lag} metric for each
 * input topic's partition, which the consumer updates with every fetch (records up to the last stable
 * offset not yet handed to Kafka Streams). Asked at the checks of a task idle for a check interval, and once per
 * batch of old events when it is {@code write-within} old (decision 47); never per event, since reading the
 * instance's metrics copies them all.
 */
final class ConsumerLag implements PendingAssignments.Backlog {

    private static final String GROUP = "consumer-fetch-manager-metrics";
    private static final String RECORDS_LAG = "records-lag";

    private final StreamsBuilderFactoryBean factoryBean;
    private final List<String> topics;

    ConsumerLag(StreamsBuilderFactoryBean factoryBean, List<String> topics) {
        this.factoryBean = factoryBean;
        this.topics = List.copyOf(topics);
    }

    @Override
    public boolean fetched(int partition) {
        KafkaStreams streams = factoryBean.getKafkaStreams();
        return streams != null && fetched(streams.metrics(), topics, partition);
    }

    /** True when every topic has a {@code records-lag} for this partition and each is 0 (absent or NaN: not known). */
    static boolean fetched(Map<MetricName, ? extends Metric> metrics, List<String> topics, int partition) {
        String number = Integer.toString(partition);
        Set<String> caughtUp = new HashSet<>();
        for (Map.Entry<MetricName, ? extends Metric> metric : metrics.entrySet()) {
            MetricName name = metric.getKey();
            String topic = name.tags().get("topic");
            if (!RECORDS_LAG.equals(name.name()) || !GROUP.equals(name.group()) || !topics.contains(topic)
                    || !number.equals(name.tags().get("partition"))) {
                continue;
            }
            if (!(metric.getValue().metricValue() instanceof Double lag) || lag.isNaN() || lag > 0) {
                return false;
            }
            caughtUp.add(topic);
        }
        return caughtUp.size() == topics.size();
    }
}
