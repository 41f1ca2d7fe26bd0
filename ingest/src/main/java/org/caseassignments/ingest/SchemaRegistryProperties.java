package org.caseassignments.ingest;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.caseassignments.schemas.serde.SerdeSettings;
import org.caseassignments.store.RenamedDuration;
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
 *                          {@code PT20S}; a bare number is refused); unset or empty: the serde's own setting, else
 *                          {@link SerdeSettings#DEFAULT_NOT_FOUND_WINDOW}
 * @param notFoundWindowMs  deprecated: the same in milliseconds, as it was set before; with {@code notFoundWindow} only
 *                          when both say the same window
 */
@ConfigurationProperties("case-events.registry")
public record SchemaRegistryProperties(String url, String basicAuthUserInfo, String notFoundWindow,
                                       @Deprecated Long notFoundWindowMs) {

    public SchemaRegistryProperties {
        warnings(window(notFoundWindow, notFoundWindowMs)).forEach(LoggerFactory.getLogger(SchemaRegistryProperties.class)::warn);
    }

    /** What an operator should change, though the service starts: the deprecated name, a window of no time. */
    List<String> warnings() {
        return warnings(window(notFoundWindow, notFoundWindowMs));
    }

    private static List<String> warnings(RenamedDuration window) {
        return window.warnings("a schema id the registry does not know yet (a follower catching up, a failover) is "
                + "dead-lettered UNKNOWN_SCHEMA at its first 404");
    }

    /**
     * The window in the one duration syntax, or its deprecated milliseconds ({@link RenamedDuration}: a bare number, a
     * negative window and the two set to different windows are refused).
     */
    private static RenamedDuration window(String value, Long millis) {
        return new RenamedDuration("SCHEMA_REGISTRY_NOT_FOUND_WINDOW", value, "SCHEMA_REGISTRY_NOT_FOUND_WINDOW_MS", millis,
                ChronoUnit.MILLIS);
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
        Duration window = window(notFoundWindow, notFoundWindowMs).duration();
        if (window != null) {
            config.put(SerdeSettings.REGISTRY_NOT_FOUND_WINDOW_MS, Long.toString(window.toMillis()));
        }
        return config;
    }
}
