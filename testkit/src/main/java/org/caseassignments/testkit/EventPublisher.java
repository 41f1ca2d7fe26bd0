package org.caseassignments.testkit;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.caseassignments.schemas.serde.CaseEventSerializer;

/**
 * Publishes case events keyed by their {@code case_id}, each acknowledged before the next is sent,
 * so the broker holds them in exactly the given order. Also publishes raw bytes, for bad-input tests.
 */
public final class EventPublisher implements AutoCloseable {

    private final KafkaProducer<String, SpecificRecord> producer;
    private final KafkaProducer<String, byte[]> rawProducer;

    public EventPublisher() {
        this(Map.of());
    }

    /** @param serdeConfig serializer settings, e.g. {@code schema.registry.url}; empty for single-object encoding */
    public EventPublisher(Map<String, Object> serdeConfig) {
        Map<String, Object> common = Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, TestKafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                ProducerConfig.LINGER_MS_CONFIG, 0);
        var config = new java.util.HashMap<String, Object>(common);
        config.putAll(serdeConfig);
        CaseEventSerializer serializer = new CaseEventSerializer();
        serializer.configure(config, false);
        this.producer = new KafkaProducer<>(config, new StringSerializer(), serializer);
        this.rawProducer = new KafkaProducer<>(common, new StringSerializer(), new ByteArraySerializer());
    }

    /** Sends each event keyed by its case id and waits for its acknowledgement before the next. */
    public List<RecordMetadata> publishInOrder(String topic, List<? extends SpecificRecord> events) {
        return events.stream().map(e -> await(producer.send(new ProducerRecord<>(topic, CaseEvents.caseIdOf(e), e)))).toList();
    }

    /** Sends all events and waits once at the end; order is kept per partition (one idempotent producer). */
    public void publishAll(String topic, List<? extends SpecificRecord> events) {
        List<java.util.concurrent.Future<RecordMetadata>> sent = events.stream()
                .map(e -> producer.send(new ProducerRecord<String, SpecificRecord>(topic, CaseEvents.caseIdOf(e), e)))
                .toList();
        producer.flush();
        sent.forEach(EventPublisher::await);
    }

    /** Sends one event keyed by its case id with the given headers (UTF-8), e.g. an upstream's {@code traceparent}. */
    public RecordMetadata publish(String topic, SpecificRecord event, Map<String, String> headers) {
        ProducerRecord<String, SpecificRecord> record = new ProducerRecord<>(topic, CaseEvents.caseIdOf(event), event);
        headers.forEach((name, text) -> record.headers().add(name, text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        return await(producer.send(record));
    }

    /** Sends raw bytes as a record value, e.g. a corrupt or foreign payload. */
    public RecordMetadata publishRaw(String topic, String key, byte[] value) {
        return publishRaw(topic, key, value, (Iterable<Header>) null);
    }

    /** Sends raw bytes as a record value, with these headers. */
    public RecordMetadata publishRaw(String topic, String key, byte[] value, Iterable<Header> headers) {
        return await(rawProducer.send(new ProducerRecord<>(topic, null, key, value, headers)));
    }

    /** Sends raw bytes as a record value with the given headers (UTF-8), e.g. an upstream's {@code traceparent}. */
    public RecordMetadata publishRaw(String topic, String key, byte[] value, Map<String, String> headers) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, key, value);
        headers.forEach((name, text) -> record.headers().add(name, text.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        return await(rawProducer.send(record));
    }

    private static RecordMetadata await(java.util.concurrent.Future<RecordMetadata> future) {
        try {
            return future.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while publishing", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Broker did not acknowledge a record within 30 s: " + e, e);
        }
    }

    @Override
    public void close() {
        producer.close();
        rawProducer.close();
    }
}
