package org.caseassignments.projector.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.junit.jupiter.api.Test;

/** Which metrics say that a task's consumer has fetched everything its input partitions hold. */
class ConsumerLagTests {

    private static final List<String> TOPICS = List.of("case.created", "case.assignment_changed");

    private record Value(MetricName metricName, Object metricValue) implements Metric {
    }

    private final Map<MetricName, Metric> metrics = new LinkedHashMap<>();

    private void metric(String group, String name, String topic, int partition, double value) {
        MetricName metricName = new MetricName(name, group, "",
                Map.of("client-id", "projector-StreamThread-1-consumer", "topic", topic,
                        "partition", Integer.toString(partition)));
        metrics.put(metricName, new Value(metricName, value));
    }

    private void lag(String topic, int partition, double value) {
        metric("consumer-fetch-manager-metrics", "records-lag", topic, partition, value);
    }

    @Test
    void shouldSayFetchedOnlyWhenTheLagOfEveryInputTopicsPartitionIsZero() {
        lag("case.created", 1, 0);
        lag("case.assignment_changed", 1, 0);
        lag("case.assignment_changed", 2, 5_000);
        metric("consumer-fetch-manager-metrics", "records-lag-max", "case.created", 1, 5_000);
        metric("consumer-fetch-manager-metrics", "records-lag", "case.other", 1, 5_000);

        assertThat(ConsumerLag.fetched(metrics, TOPICS, 1)).isTrue();
        assertThat(ConsumerLag.fetched(metrics, TOPICS, 2)).as("partition 2 lags, and one topic is unknown").isFalse();
    }

    @Test
    void shouldNotSayFetchedWhileAnyTopicLagsOrIsNotKnown() {
        lag("case.created", 0, 0);
        lag("case.assignment_changed", 0, 1);
        assertThat(ConsumerLag.fetched(metrics, TOPICS, 0)).as("one record left").isFalse();

        lag("case.assignment_changed", 0, Double.NaN);
        assertThat(ConsumerLag.fetched(metrics, TOPICS, 0)).as("not measured yet").isFalse();

        metrics.clear();
        lag("case.created", 0, 0);
        assertThat(ConsumerLag.fetched(metrics, TOPICS, 0)).as("no metric for one topic").isFalse();
    }
}
