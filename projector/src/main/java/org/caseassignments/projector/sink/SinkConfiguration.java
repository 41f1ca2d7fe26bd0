package org.caseassignments.projector.sink;

import java.time.Clock;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.ingest.ProjectionApplier;
import org.caseassignments.projector.ProjectorProperties;
import org.caseassignments.schemas.topics.CaseTopics;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.core.ConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaConsumerFactory;
import org.springframework.kafka.core.DefaultKafkaProducerFactory;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.kafka.core.MicrometerConsumerListener;
import org.springframework.kafka.core.MicrometerProducerListener;
import org.springframework.kafka.listener.ConcurrentMessageListenerContainer;
import org.springframework.kafka.listener.ContainerProperties;
import org.springframework.kafka.listener.DefaultErrorHandler;
import org.springframework.kafka.listener.RetryListener;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * The sink's consumer: a batch listener on {@code case.assignments} whose offsets the container
 * commits synchronously after each batch the listener returned from ({@code AckMode.BATCH}), reading
 * only committed Streams transactions. A failed batch is retried in place with exponential backoff
 * and never handed to a recoverer: the consumer is paused (and keeps its partitions) meanwhile.
 */
@Configuration(proxyBeanMethods = false)
class SinkConfiguration {

    /** Prefix of the sink consumers' client ids, as their metrics are tagged. */
    static final String SINK_CLIENT_ID = "projection-sink";

    @Bean
    ConsumerFactory<byte[], byte[]> projectionSinkConsumerFactory(KafkaProperties kafka, ProjectorProperties properties,
                                                                 MeterRegistry registry) {
        ProjectorProperties.Sink sink = properties.sink();
        Map<String, Object> config = kafka.buildConsumerProperties();
        config.put(ConsumerConfig.GROUP_ID_CONFIG, properties.sinkGroupId());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, IsolationLevel.READ_COMMITTED.toString());
        config.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, sink.maxBatchEvents());
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, (int) sink.maxBatchWait().toMillis());
        config.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, sink.minBatchBytes());
        DefaultKafkaConsumerFactory<byte[], byte[]> factory = new DefaultKafkaConsumerFactory<>(config,
                new ByteArrayDeserializer(), new ByteArrayDeserializer());
        factory.addListener(new MicrometerConsumerListener<>(registry));
        return factory;
    }

    /** Only for the rare bad record on the projection's own topic. */
    @Bean
    KafkaTemplate<byte[], byte[]> deadLetterTemplate(KafkaProperties kafka, MeterRegistry registry) {
        DefaultKafkaProducerFactory<byte[], byte[]> factory = new DefaultKafkaProducerFactory<>(
                kafka.buildProducerProperties(), new ByteArraySerializer(), new ByteArraySerializer());
        factory.addListener(new MicrometerProducerListener<>(registry));
        return new KafkaTemplate<>(factory);
    }

    @Bean
    SinkHealthIndicator projectionSinkHealthIndicator() {
        return new SinkHealthIndicator(Clock.systemUTC());
    }

    @Bean
    ConcurrentMessageListenerContainer<byte[], byte[]> projectionSinkContainer(
            ConsumerFactory<byte[], byte[]> projectionSinkConsumerFactory, ProjectorProperties properties,
            CaseTopics topics, CaseEventReader reader, ProjectionApplier applier,
            KafkaTemplate<byte[], byte[]> deadLetterTemplate, IngestMetrics metrics, SinkHealthIndicator health) {
        ContainerProperties container = new ContainerProperties(topics.assignments().name());
        container.setGroupId(properties.sinkGroupId());
        container.setAckMode(ContainerProperties.AckMode.BATCH);
        container.setSyncCommits(true);
        container.setClientId(SINK_CLIENT_ID);
        container.setMessageListener(new ProjectionSink(reader, applier, deadLetterTemplate,
                topics.deadLetter().name(), metrics, health));
        ConcurrentMessageListenerContainer<byte[], byte[]> listeners =
                new ConcurrentMessageListenerContainer<>(projectionSinkConsumerFactory, container);
        listeners.setConcurrency(properties.sink().concurrency());
        listeners.setCommonErrorHandler(retryForever(properties.sink().retry(), health));
        health.watch(listeners::isRunning);
        return listeners;
    }

    private static DefaultErrorHandler retryForever(ProjectorProperties.Retry retry, SinkHealthIndicator health) {
        ExponentialBackOff backOff = new ExponentialBackOff(retry.initialInterval().toMillis(), retry.multiplier());
        backOff.setMaxInterval(retry.maxInterval().toMillis());
        backOff.setMaxElapsedTime(Long.MAX_VALUE);
        backOff.setMaxAttempts(Integer.MAX_VALUE);
        DefaultErrorHandler handler = new DefaultErrorHandler((record, error) -> {
            // Unreachable with an endless backoff; if it ever runs, refusing makes the container re-seek the batch.
            throw new IllegalStateException("the projection sink never skips a record", error);
        }, backOff);
        handler.setRetryListeners(new RetryListener() {
            @Override
            public void failedDelivery(ConsumerRecord<?, ?> record, Exception error, int attempt) {
                health.attemptFailed(error);
            }

            @Override
            public void failedDelivery(ConsumerRecords<?, ?> records, Exception error, int attempt) {
                health.attemptFailed(error);
            }
        });
        return handler;
    }
}
