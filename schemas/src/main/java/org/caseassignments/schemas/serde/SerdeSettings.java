package org.caseassignments.schemas.serde;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * Serde settings, read from the Kafka client configuration map. The registry keys are the ones
 * Confluent's serde uses, so an existing client configuration carries over.
 *
 * @param registryUrl          Confluent-compatible registry; null selects single-object encoding
 * @param basicAuthUserInfo    {@code user:password} for the registry, or null
 * @param subjectNameStrategy  how the serializer names the subject it registers under
 * @param registryTimeout      connect and request timeout for registry calls
 * @param registryNotFoundWindow how long after the registry first answered 404 for a schema id a reader keeps
 *                             asking (as if the registry were unavailable) before the record is {@code UNKNOWN_SCHEMA}:
 *                             a follower that has not caught up with a new schema, or a failover, answers 404 for a while
 */
public record SerdeSettings(URI registryUrl, String basicAuthUserInfo, SubjectNameStrategy subjectNameStrategy,
                            Duration registryTimeout, Duration registryNotFoundWindow) {

    public static final String REGISTRY_URL = "schema.registry.url";
    public static final String BASIC_AUTH_USER_INFO = "basic.auth.user.info";
    public static final String SUBJECT_NAME_STRATEGY = "case-events.subject.name.strategy";
    public static final String REGISTRY_TIMEOUT_MS = "case-events.registry.timeout.ms";
    public static final String REGISTRY_NOT_FOUND_WINDOW_MS = "case-events.registry.not-found-window.ms";
    /**
     * Twenty seconds: a lagging follower or a failover settles in seconds, and a reader waiting it out stays well
     * inside the projector's poll interval (5 min) and its registry retry (1 min).
     */
    public static final Duration DEFAULT_NOT_FOUND_WINDOW = Duration.ofSeconds(20);

    public static final SerdeSettings SINGLE_OBJECT =
            new SerdeSettings(null, null, SubjectNameStrategy.TOPIC_RECORD, Duration.ofSeconds(10), DEFAULT_NOT_FOUND_WINDOW);

    public static SerdeSettings from(Map<String, ?> configs) {
        Object url = configs.get(REGISTRY_URL);
        Object auth = configs.get(BASIC_AUTH_USER_INFO);
        Object strategy = configs.get(SUBJECT_NAME_STRATEGY);
        Object timeout = configs.get(REGISTRY_TIMEOUT_MS);
        Object notFoundWindow = configs.get(REGISTRY_NOT_FOUND_WINDOW_MS);
        return new SerdeSettings(
                url == null || url.toString().isBlank() ? null : URI.create(url.toString().trim()),
                auth == null ? null : auth.toString(),
                strategy == null ? SubjectNameStrategy.TOPIC_RECORD : SubjectNameStrategy.parse(strategy.toString()),
                timeout == null ? Duration.ofSeconds(10) : Duration.ofMillis(Long.parseLong(timeout.toString())),
                notFoundWindow == null ? DEFAULT_NOT_FOUND_WINDOW
                        : Duration.ofMillis(Long.parseLong(notFoundWindow.toString().trim())));
    }

    public boolean usesRegistry() {
        return registryUrl != null;
    }

    /** Subject naming as in Confluent's TopicNameStrategy, RecordNameStrategy and TopicRecordNameStrategy. */
    public enum SubjectNameStrategy {
        /** {@code <topic>-value}: one record type per topic. */
        TOPIC,
        /** {@code <record full name>}. */
        RECORD,
        /** {@code <topic>-<record full name>}: several record types on one topic (the default). */
        TOPIC_RECORD;

        static SubjectNameStrategy parse(String value) {
            try {
                return valueOf(value.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(SUBJECT_NAME_STRATEGY + " must be topic, record or topic-record, was '"
                        + value + "'", e);
            }
        }

        public String subject(String topic, String recordFullName, boolean isKey) {
            return switch (this) {
                case TOPIC -> topic + (isKey ? "-key" : "-value");
                case RECORD -> recordFullName;
                case TOPIC_RECORD -> topic + "-" + recordFullName;
            };
        }
    }
}
