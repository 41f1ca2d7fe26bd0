package org.caseassignments.ingest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.caseassignments.schemas.serde.SerdeSettings;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.convert.DurationStyle;

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
        Duration window = window(notFoundWindow);
        if (window != null && notFoundWindowMs != null && !window.equals(Duration.ofMillis(notFoundWindowMs))) {
            throw new IllegalArgumentException("SCHEMA_REGISTRY_NOT_FOUND_WINDOW (case-events.registry.not-found-window, "
                    + notFoundWindow + ") and the deprecated SCHEMA_REGISTRY_NOT_FOUND_WINDOW_MS "
                    + "(case-events.registry.not-found-window-ms, " + notFoundWindowMs + ") are both set, to different "
                    + "windows: set SCHEMA_REGISTRY_NOT_FOUND_WINDOW alone, e.g. " + notFoundWindowMs + "ms");
        }
        if (window != null && window.isNegative() || notFoundWindowMs != null && notFoundWindowMs < 0) {
            throw new IllegalArgumentException("SCHEMA_REGISTRY_NOT_FOUND_WINDOW must not be negative, was "
                    + (window != null ? notFoundWindow : notFoundWindowMs + "ms"));
        }
        warnings(window, notFoundWindowMs).forEach(LoggerFactory.getLogger(SchemaRegistryProperties.class)::warn);
    }

    /** What an operator should change, though the service starts: the deprecated name, a window of no time. */
    List<String> warnings() {
        return warnings(window(notFoundWindow), notFoundWindowMs);
    }

    private static List<String> warnings(Duration window, Long notFoundWindowMs) {
        List<String> warnings = new ArrayList<>();
        if (notFoundWindowMs != null) {
            warnings.add("SCHEMA_REGISTRY_NOT_FOUND_WINDOW_MS is deprecated and goes in the next release: set "
                    + "SCHEMA_REGISTRY_NOT_FOUND_WINDOW=" + notFoundWindowMs + "ms"
                    + (window != null ? " alone (both are set, to the same window)" : ""));
        }
        Duration effective = window != null ? window : notFoundWindowMs != null ? Duration.ofMillis(notFoundWindowMs) : null;
        if (effective != null && effective.isZero()) {
            warnings.add("SCHEMA_REGISTRY_NOT_FOUND_WINDOW is 0: a schema id the registry does not know yet (a follower "
                    + "catching up, a failover) is dead-lettered UNKNOWN_SCHEMA at its first 404");
        }
        return warnings;
    }

    /**
     * The window in the one duration syntax; empty is unset (the application.yml hands an unset variable over as
     * empty). A bare number is refused: Spring would read it as milliseconds, where the variable it replaces said
     * its unit in its name and the command line refuses one.
     */
    private static Duration window(String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        String written = value.strip();
        if (written.matches("[+-]?\\d+")) {
            throw new IllegalArgumentException("SCHEMA_REGISTRY_NOT_FOUND_WINDOW (case-events.registry.not-found-window) "
                    + "is a bare number, " + written + ", with no unit: write it as a duration, e.g. " + written + "s or "
                    + written + "ms");
        }
        return DurationStyle.detectAndParse(written);
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
        Duration given = window(notFoundWindow);
        Duration window = given != null ? given
                : notFoundWindowMs != null ? Duration.ofMillis(notFoundWindowMs) : null;
        if (window != null) {
            config.put(SerdeSettings.REGISTRY_NOT_FOUND_WINDOW_MS, Long.toString(window.toMillis()));
        }
        return config;
    }
}
