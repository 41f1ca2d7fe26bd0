package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

import org.caseassignments.projector.stream.PendingAssignments;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * A projector whose stream threads die again and again (here a batch holding one case always fails with an error the
 * batch writer does not handle, so Kafka Streams replaces the thread, which reads the same batch and dies again):
 * the client stays RUNNING throughout, and liveness goes DOWN once threads were replaced more than
 * {@code projector.health.max-restarts} times within {@code projector.health.restart-window}.
 */
class ProjectorRestartLoopHealthIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(1).createEvents();

    @Test
    void shouldReportNotLiveOnceStreamThreadsAreReplacedMoreThanTheBoundWithinTheWindow() {
        UUID poison = UUID.randomUUID();
        AtomicInteger failures = new AtomicInteger();
        Map<String, String> properties = ProjectorInstance.properties(DB, TOPICS, ProjectorInstance.uniqueApplicationId());
        properties.put("projector.streams.threads", "1");
        properties.put("projector.health.max-restarts", "2");
        properties.put("projector.health.restart-window", "10m");
        try (ProjectorInstance projector = ProjectorInstance.start(properties, List.of(failingOn(poison, failures)));
             EventPublisher publisher = new EventPublisher()) {
            await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(60))
                    .until(() -> projector.health("liveness").equals(Status.UP));

            // When a batch holding the poisoned case kills every stream thread that writes it
            publisher.publishInOrder(TOPICS.events(), List.of(CaseEvents.created(poison).worker("w-1").build()));

            // Then, after the third replacement, liveness is DOWN and says why, while the client still runs
            // (the stream threads' failures are expected: the wait must not take them for its own)
            await("liveness DOWN").dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(120))
                    .pollInterval(Duration.ofMillis(200))
                    .until(() -> projector.health("liveness").equals(Status.DOWN));
            assertThat(failures.get()).isGreaterThanOrEqualTo(3);
            assertThat(projector.health("kafkaStreams")).isEqualTo(Status.UP);
            assertThat(projector.healthDetails("streamThreadRestartsHealthIndicator").get("reason").toString())
                    .containsPattern("stream threads replaced \\d+ times within 10 min \\(bound 2\\)")
                    .contains("poisoned batch of case " + poison);
        }
    }

    private static ApplicationContextInitializer<ConfigurableApplicationContext> failingOn(UUID caseId,
                                                                                          AtomicInteger failures) {
        return context -> context.getBeanFactory().addBeanPostProcessor(new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                if (!(bean instanceof PendingAssignments.Flusher flusher)) {
                    return bean;
                }
                return (PendingAssignments.Flusher) batch -> {
                    if (batch.updates().stream().anyMatch(update -> update.caseId().equals(caseId))) {
                        failures.incrementAndGet();
                        throw new IllegalStateException("poisoned batch of case " + caseId);
                    }
                    return flusher.apply(batch);
                };
            }
        });
    }
}
