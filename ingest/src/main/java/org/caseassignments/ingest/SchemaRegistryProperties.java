package org.caseassignments.ingest;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import org.caseassignments.schemas.serde.SerdeSettings;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The schema registry settings ({@code case-events.registry.*}) of every deployable that reads the event topics,
 * the projector and the backfill alike, so one set of environment variables configures them all: each
 * application.yml maps {@code SCHEMA_REGISTRY_URL}, {@code SCHEMA_REGISTRY_BASIC_AUTH_USER_INFO} and
 * {@code SCHEMA_REGISTRY_NOT_FOUND_WINDOW} (with its deprecated {@code SCHEMA_REGISTRY_NOT_FOUND_WINDOW_MS}) here.
 *
 * @param url               Confluent-compatible registry; empty for single-object encoding
 * @param basicAuthUserInfo {@code user:password} for the registry; empty for none
 * @param notFoundWindow    how long a schema id the registry answers 404 for is asked again before its record is
 *                          {@code UNKNOWN_SCHEMA}, in the one duration syntax ({@code 20s}, {@code 500ms},
 *                          {@code PT20S}); unset: the serde's own setting, else {@link SerdeSettings#DEFAULT_NOT_FOUND_WINDOW}
 * @param notFoundWindowMs  deprecated: the same in milliseconds, as it was set before; not with {@code notFoundWindow}
 */
@ConfigurationProperties("case-events.registry")
public record SchemaRegistryProperties(String url, String basicAuthUserInfo, Duration notFoundWindow,
                                       @Deprecated Long notFoundWindowMs) {

    public SchemaRegistryProperties {
        if (notFoundWindow != null && notFoundWindowMs != null) {
            throw new IllegalArgumentException("SCHEMA_REGISTRY_NOT_FOUND_WINDOW (case-events.registry.not-found-window, "
                    + notFoundWindow + ") and the deprecated SCHEMA_REGISTRY_NOT_FOUND_WINDOW_MS "
                    + "(case-events.registry.not-found-window-ms, " + notFoundWindowMs + ") are both set: set "
                    + "SCHEMA_REGISTRY_NOT_FOUND_WINDOW alone, e.g. " + notFoundWindowMs + "ms");
        }
        if (notFoundWindow != null && notFoundWindow.isNegative() || notFoundWindowMs != null && notFoundWindowMs < 0) {
            throw new IllegalArgumentException("SCHEMA_REGISTRY_NOT_FOUND_WINDOW must not be negative, was "
                    + (notFoundWindow != null ? notFoundWindow : notFoundWindowMs + "ms"));
        }
        if (notFoundWindowMs != null) {
            LoggerFactory.getLogger(SchemaRegistryProperties.class).warn("SCHEMA_REGISTRY_NOT_FOUND_WINDOW_MS is deprecated "
                    + "and goes in the next release: set SCHEMA_REGISTRY_NOT_FOUND_WINDOW={}ms", notFoundWindowMs);
        }
    }

    /**
     * The serde settings: the Kafka client properties ({@code spring.kafka.properties.*}, where
     * {@code schema.registry.url} and {@code case-events.registry.not-found-window.ms} may also be set), with these
     * settings over them where they are given.
     */
    public Map<String, Object> serdeConfig(Map<String, String> kafkaClientProperties) {
        Map<String, Object> config = new HashMap<>(kafkaClientProperties);
        if (url != null && !url.isBlank()) {
            config.put(SerdeSettings.REGISTRY_URL, url.trim());
        }
        if (basicAuthUserInfo != null && !basicAuthUserInfo.isBlank()) {
            config.put(SerdeSettings.BASIC_AUTH_USER_INFO, basicAuthUserInfo);
        }
        Duration window = notFoundWindow != null ? notFoundWindow
                : notFoundWindowMs != null ? Duration.ofMillis(notFoundWindowMs) : null;
        if (window != null) {
            config.put(SerdeSettings.REGISTRY_NOT_FOUND_WINDOW_MS, Long.toString(window.toMillis()));
        }
        return config;
    }
}
