package org.caseassignments.projector.stream;

import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.projector.ProjectorProperties;
import org.caseassignments.schemas.topics.CaseTopics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.kafka.annotation.EnableKafkaStreams;
import org.springframework.kafka.annotation.KafkaStreamsDefaultConfiguration;
import org.springframework.kafka.config.KafkaStreamsConfiguration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.kafka.config.StreamsBuilderFactoryBeanConfigurer;
import org.springframework.kafka.core.KafkaAdmin;

/**
 * Runs {@link ProjectorTopology} through spring-kafka's {@code StreamsBuilderFactoryBean}, exactly
 * once: input offsets, dead letters and (when published) revision-store changes and projection records
 * commit in one Kafka transaction. Before each commit Kafka Streams flushes the pending batch into
 * PostgreSQL, so the input offsets never move past an event the database does not have.
 */
@Configuration(proxyBeanMethods = false)
@EnableKafkaStreams
class StreamsConfiguration {

    private static final Logger log = LoggerFactory.getLogger(StreamsConfiguration.class);

    @Bean(KafkaStreamsDefaultConfiguration.DEFAULT_STREAMS_CONFIG_BEAN_NAME)
    KafkaStreamsConfiguration defaultKafkaStreamsConfig(KafkaProperties kafka, ProjectorProperties properties) {
        Map<String, Object> config = kafka.buildStreamsProperties();
        ProjectorProperties.Streams streams = properties.streams();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, properties.applicationId());
        config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        config.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, streams.commitInterval().toMillis());
        config.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, streams.threads());
        // Never jump over input: an offset below the log start stops the projector by name (InputGapHealthIndicator);
        // a partition without a committed offset starts from its log start only when that skips nothing the projection
        // may lack, set before the threads start (InputOffsets); otherwise it stops by name too.
        config.put(StreamsConfig.mainConsumerPrefix(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG), "none");
        // Kafka Streams refuses a transaction timeout below the commit interval; a crashed instance's open
        // transaction holds up its successor for at most this long.
        config.putIfAbsent(StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG),
                (int) Math.max(10_000, 2 * streams.commitInterval().toMillis()));
        // One size for the whole hop: a dead letter is cut to what the topics take, so the producer must take it too.
        config.put(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG),
                properties.topics().maxMessageBytes());
        // Dead letters are logged when the broker acknowledged them, not when they were handed to the producer.
        String interceptors = StreamsConfig.producerPrefix(ProducerConfig.INTERCEPTOR_CLASSES_CONFIG);
        Object configured = config.get(interceptors);
        String others = configured instanceof java.util.Collection<?> list
                ? list.stream().map(Object::toString).collect(java.util.stream.Collectors.joining(","))
                : configured == null ? "" : configured.toString().trim();
        config.put(interceptors, others.isEmpty() ? DeadLetterLog.class.getName() : others + "," + DeadLetterLog.class.getName());
        config.put(StreamsConfig.producerPrefix(DeadLetterLog.TOPIC_CONFIG), properties.topics().deadLetter());

        if (streams.stateDir() != null && !streams.stateDir().isBlank()) {
            config.put(StreamsConfig.STATE_DIR_CONFIG, streams.stateDir());
        }
        return new KafkaStreamsConfiguration(config);
    }

    @Bean
    ProjectorTopology projectorTopology(StreamsBuilder builder, CaseTopics topics, CaseEventReader reader,
                                        IngestMetrics metrics, PendingAssignments.Flusher flusher, UncommittedWork work,
                                        ProjectorProperties properties, StreamsBuilderFactoryBean factoryBean) {
        ProjectorProperties.Sink sink = properties.sink();
        ProjectorTopology topology = new ProjectorTopology(topics, reader, metrics, PendingAssignments.builder(flusher,
                work, new PendingAssignments.Pacing(sink.checkEvery(), sink.freshWithin(), sink.quietAfter(),
                        sink.maxPendingCases(), sink.liveCommitEvery(), sink.maxPendingBytes().toBytes(),
                        sink.writeWithin(), backlogWaitAtMost(properties)),
                new ConsumerLag(factoryBean, topics.eventTopicNames())), properties.publishAssignments());
        topology.addTo(builder);
        return topology;
    }

    /**
     * The longest a backlog's batch gathers (decision 47): within the Streams commit interval, which writes it anyway,
     * and within half of the health checks' bounds on an uncommitted task and a partition's committed offset that
     * does not move, so a task reading a backlog never looks stalled.
     */
    static Duration backlogWaitAtMost(ProjectorProperties properties) {
        return Collections.min(List.of(properties.streams().commitInterval(),
                properties.health().maxCommitDelay().dividedBy(2), properties.health().maxStall().dividedBy(2)));
    }

    @Bean
    StreamThreadFailures streamThreadFailures(MeterRegistry registry, ProjectorProperties properties) {
        return new StreamThreadFailures(registry, Clock.systemUTC(), properties.health().restartWindow());
    }

    @Bean
    InputOffsets inputOffsets(KafkaAdmin kafkaAdmin, JdbcTemplate jdbc, ProjectorProperties properties, CaseTopics topics) {
        return new InputOffsets(kafkaAdmin, jdbc, properties.applicationId(), Set.copyOf(topics.eventTopicNames()),
                properties.input().startAtLogStart());
    }

    @Bean
    InputGapHealthIndicator projectionInputHealthIndicator(KafkaAdmin kafkaAdmin, MeterRegistry meters) {
        return new InputGapHealthIndicator(kafkaAdmin, meters);
    }

    @Bean
    StreamsBuilderFactoryBeanConfigurer streamsLifecycle(StreamThreadFailures failures, InputGapHealthIndicator gap) {
        return factoryBean -> {
            // A failed stream thread is replaced; its tasks resume from their last commit, nothing is skipped.
            // An unusable input offset is not the thread's fault: every thread would fail on it, so the client stops.
            factoryBean.setStreamsUncaughtExceptionHandler(e -> {
                if (gap.stopsAt(e)) {
                    return StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
                }
                log.error("Stream thread failed; replacing it, its tasks resume from their last commit", e);
                failures.replaced(e);
                return StreamThreadExceptionResponse.REPLACE_THREAD;
            });
            // A stopping instance hands its partitions over at once instead of after the session timeout.
            factoryBean.setLeaveGroupOnClose(true);
        };
    }

    @Bean
    StreamThreadRestartsHealthIndicator streamThreadRestartsHealthIndicator(StreamThreadFailures failures,
                                                                            ProjectorProperties properties) {
        return new StreamThreadRestartsHealthIndicator(failures, properties.health().maxRestarts(),
                properties.health().restartWindow());
    }

    @Bean
    KafkaStreamsHealthIndicator kafkaStreamsHealthIndicator(StreamsBuilderFactoryBean factoryBean) {
        return new KafkaStreamsHealthIndicator(factoryBean);
    }

    @Bean
    ProgressHealthIndicator projectionProgressHealthIndicator(StreamsBuilderFactoryBean factoryBean, KafkaAdmin kafkaAdmin,
                                                              ProjectorProperties properties, CaseTopics topics,
                                                              StreamThreadFailures failures, MeterRegistry meters) {
        return new ProgressHealthIndicator(factoryBean, kafkaAdmin, properties.applicationId(),
                Set.copyOf(topics.eventTopicNames()), properties.health().maxStall(), failures, Clock.systemUTC(),
                meters);
    }
}
