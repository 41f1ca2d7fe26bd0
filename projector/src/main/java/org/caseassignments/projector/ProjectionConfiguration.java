package org.caseassignments.projector;

import java.util.Map;

import javax.sql.DataSource;

import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.ingest.CaseEventReader;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.ingest.SchemaRegistryProperties;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.schemas.serde.BundledSchemas;
import org.caseassignments.schemas.serde.SerdeSettings;
import org.caseassignments.schemas.topics.CaseTopics;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.store.MigrationConnections;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.flyway.autoconfigure.FlywayConfigurationCustomizer;
import org.springframework.boot.kafka.autoconfigure.KafkaProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The ingest path of the stream and its database write: the topic catalogue, the reader, the guarded writer and the
 * meters; and the connection the schema's migrations run on.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SchemaRegistryProperties.class)
class ProjectionConfiguration {

    /** Meters of this path carry {@code source=projector}; the replay job reports the same names as {@code replay}. */
    static final String METRICS_SOURCE = "projector";

    /** The migrations at startup connect with the pool's connection properties ({@link MigrationConnections}). */
    @Bean
    FlywayConfigurationCustomizer migrationsConnectAsThePoolDoes(DataSource pool) {
        return configuration -> MigrationConnections.carryThePoolsProperties(configuration.getDataSource(), pool);
    }

    @Bean
    CaseTopics caseTopics(ProjectorProperties properties, SchemaRegistryProperties registry, KafkaProperties kafka) {
        ProjectorProperties.Topics topics = properties.topics();
        return CaseTopics.of(topics.events(), topics.assignments(), topics.deadLetter(), serdeConfig(registry, kafka),
                topics.maxMessageBytes());
    }

    @Bean
    CaseEventReader caseEventReader(SchemaRegistryProperties registry, KafkaProperties kafka) {
        return new CaseEventReader(new AvroEventCodec(SerdeSettings.from(serdeConfig(registry, kafka)),
                BundledSchemas.current()));
    }

    @Bean
    IngestMetrics ingestMetrics(MeterRegistry registry) {
        return new IngestMetrics(registry, METRICS_SOURCE);
    }

    @Bean
    AssignmentWriter assignmentWriter(JdbcTemplate jdbc, ProjectorProperties properties) {
        return new AssignmentWriter(jdbc, properties.sink().maxQueuedCases());
    }

    private static Map<String, Object> serdeConfig(SchemaRegistryProperties registry, KafkaProperties kafka) {
        return registry.serdeConfig(kafka.getProperties());
    }
}
