package org.caseassignments.ingest;

import java.util.HashMap;
import java.util.Map;

import org.caseassignments.schemas.serde.SerdeSettings;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The schema registry settings ({@code case-events.registry.*}) of every deployable that reads the event topics,
 * the projector and the backfill alike, so one set of environment variables configures them all: each
 * application.yml maps {@code SCHEMA_REGISTRY_URL} and {@code SCHEMA_REGISTRY_BASIC_AUTH_USER_INFO} here.
 *
 * @param url               Confluent-compatible registry; empty for single-object encoding
 * @param basicAuthUserInfo {@code user:password} for the registry; empty for none
 */
@ConfigurationProperties("case-events.registry")
public record SchemaRegistryProperties(String url, String basicAuthUserInfo) {

    /**
     * The serde settings: the Kafka client properties ({@code spring.kafka.properties.*}, where
     * {@code schema.registry.url} may also be set), with these settings over them where they are given.
     */
    public Map<String, Object> serdeConfig(Map<String, String> kafkaClientProperties) {
        Map<String, Object> config = new HashMap<>(kafkaClientProperties);
        if (url != null && !url.isBlank()) {
            config.put(SerdeSettings.REGISTRY_URL, url.trim());
        }
        if (basicAuthUserInfo != null && !basicAuthUserInfo.isBlank()) {
            config.put(SerdeSettings.BASIC_AUTH_USER_INFO, basicAuthUserInfo);
        }
        return config;
    }
}
