package org.caseassignments.projector.stream;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.caseassignments.ingest.DeadLetters;
import org.caseassignments.ingest.Rejection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class DeadLetterLogTests {

    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final Logger logger = (Logger) LoggerFactory.getLogger(DeadLetterLog.class);
    private final DeadLetterLog log = new DeadLetterLog();
    private final Headers headers = DeadLetters.headers(new RecordHeaders(),
            new Rejection(Rejection.INVALID_KEY, "record has no key"), "case.events", 2, 41);

    @BeforeEach
    void capture() {
        appender.start();
        logger.addAppender(appender);
        logger.setAdditive(false);
        log.configure(Map.of(DeadLetterLog.TOPIC_CONFIG, "case.events.dlq"));
    }

    @AfterEach
    void release() {
        logger.detachAppender(appender);
        logger.setAdditive(true);
    }

    @Test
    void shouldLogADeadLetterOnlyOnceTheBrokerAcknowledgedIt() {
        log.onAcknowledgement(new RecordMetadata(new TopicPartition("case.events.dlq", 0), 7, 0, 0, 0, 0), null, headers);

        assertThat(appender.list).singleElement().satisfies(line -> {
            assertThat(line.getLevel()).isEqualTo(Level.WARN);
            assertThat(line.getFormattedMessage())
                    .isEqualTo("Dead-lettered case.events-2@41 to case.events.dlq-0@7: INVALID_KEY: record has no key");
        });
    }

    @Test
    void shouldSayADeadLetterWasNotWrittenWhenTheSendFailed() {
        log.onAcknowledgement(new RecordMetadata(new TopicPartition("case.events.dlq", -1), -1, 0, 0, 0, 0),
                new TimeoutException("expired"), headers);

        assertThat(appender.list).singleElement().satisfies(line -> {
            assertThat(line.getLevel()).isEqualTo(Level.ERROR);
            assertThat(line.getFormattedMessage()).startsWith("Could not write the dead letter of case.events-2@41 (INVALID_KEY)")
                    .doesNotContain("Dead-lettered");
        });
    }

    @Test
    void shouldIgnoreRecordsOfOtherTopics() {
        log.onAcknowledgement(new RecordMetadata(new TopicPartition("case.assignments", 0), 7, 0, 0, 0, 0), null, headers);

        assertThat(appender.list).isEmpty();
    }
}
