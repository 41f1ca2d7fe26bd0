package org.caseassignments.projector;

import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.schemas.serde.BundledSchemas;
import org.caseassignments.schemas.serde.SerdeSettings;
import org.caseassignments.schemas.topics.CaseTopics;
import org.caseassignments.store.AssignmentWriter;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/** The ingest path of the stream and its database write: the topic catalogue, the reader, the guarded writer and the meters. */
@Configuration(proxyBeanMethods = false)
class ProjectionConfiguration {

    /** Meters of this path carry {@code source=projector}; the replay job reports the same names as {@code replay}. */
    static final String METRICS_SOURCE = "projector";

    @Bean
    CaseTopics caseTopics(ProjectorProperties properties, KafkaProperties kafka) {
        ProjectorProperties.Topics topics = properties.topics();
        return CaseTopics.of(topics.events(), topics.assignments(), topics.deadLetter(), serdeConfig(properties, kafka),
                topics.maxMessageBytes());
    }

    @Bean
    CaseEventReader caseEventReader(ProjectorProperties properties, KafkaProperties kafka) {
        return new CaseEventReader(new AvroEventCodec(SerdeSettings.from(serdeConfig(properties, kafka)),
                BundledSchemas.current()));
    }

    @Bean
    IngestMetrics ingestMetrics(MeterRegistry registry) {
        return new IngestMetrics(registry, METRICS_SOURCE);
    }

    @Bean
    AssignmentWriter assignmentWriter(JdbcTemplate jdbc) {
        return new AssignmentWriter(jdbc);
    }

    private static Map<String, Object> serdeConfig(ProjectorProperties properties, KafkaProperties kafka) {
        return properties.serdeConfig(kafka.getProperties());
    }
}
