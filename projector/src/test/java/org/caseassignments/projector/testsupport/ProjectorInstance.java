package org.caseassignments.projector.testsupport;

import org.caseassignments.projector.ProjectorApplication;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.streams.KafkaStreams;
import org.caseassignments.schemas.serde.RegistryStub;
import org.caseassignments.schemas.serde.SerdeSettings;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/**
 * The projector application, started in this JVM against a test database and a test class's own
 * topics, with its own application id and state directory. Closing it is a graceful shutdown.
 */
public final class ProjectorInstance implements AutoCloseable {

    private final ConfigurableApplicationContext context;

    private ProjectorInstance(ConfigurableApplicationContext context) {
        this.context = context;
    }

    /** The properties that point a projector at this database, these topics and this application id. */
    public static Map<String, String> properties(TestDatabase db, ProjectorTopics topics, String applicationId) {
        Map<String, String> properties = new LinkedHashMap<>(db.springProperties());
        properties.put("spring.kafka.bootstrap-servers", TestKafka.bootstrapServers());
        properties.put("projector.application-id", applicationId);
        properties.put("projector.topics.events", topics.events());
        properties.put("projector.topics.assignments", topics.assignments());
        properties.put("projector.topics.dead-letter", topics.deadLetter());
        properties.put("projector.partitions", Integer.toString(topics.partitions()));
        properties.put("projector.streams.state-dir", temporaryDirectory().toString());
        // A crashed member is noticed in seconds, not the default 45 s.
        properties.put("spring.kafka.streams.properties.session.timeout.ms", "6000");
        properties.put("spring.kafka.streams.properties.heartbeat.interval.ms", "1000");
        properties.put("spring.kafka.consumer.properties.session.timeout.ms", "6000");
        properties.put("spring.kafka.consumer.properties.heartbeat.interval.ms", "1000");
        properties.put("projector.sink.retry.max-interval", "1s");
        properties.put("spring.main.banner-mode", "off");
        properties.put("spring.jmx.enabled", "false");
        return properties;
    }

    /**
     * {@code properties} pointing the projector at a test's schema registry, whose 404 for a schema id it takes as
     * final {@code notFoundWindow} after the first.
     */
    public static Map<String, String> withRegistry(Map<String, String> properties, RegistryStub registry,
                                            Duration notFoundWindow) {
        properties.put("case-events.registry.url", registry.url().toString());
        properties.put("spring.kafka.properties." + SerdeSettings.REGISTRY_NOT_FOUND_WINDOW_MS,
                Long.toString(notFoundWindow.toMillis()));
        return properties;
    }

    /**
     * {@code properties} under which a task that is behind writes only when its pending events reach
     * {@code maxPendingBytes}: no event counts as live, and the quiet rule, the time rule ({@code write-within}) and
     * the commit interval are five minutes away.
     */
    public static Map<String, String> writingOnlyAtTheByteBudget(Map<String, String> properties, String maxPendingBytes) {
        properties.put("projector.sink.max-pending-bytes", maxPendingBytes);
        properties.put("projector.sink.fresh-within", "0ms");
        properties.put("projector.sink.quiet-after", "5m");
        properties.put("projector.sink.write-within", "5m");
        properties.put("projector.streams.commit-interval", "5m");
        return properties;
    }

    public static ProjectorInstance start(TestDatabase db, ProjectorTopics topics, String applicationId) {
        return start(properties(db, topics, applicationId));
    }

    public static ProjectorInstance start(Map<String, String> properties) {
        return start(properties, WebApplicationType.NONE);
    }

    /** With {@link WebApplicationType#SERVLET}: its probes' port and its management port, as in production. */
    public static ProjectorInstance start(Map<String, String> properties, WebApplicationType web) {
        return start(properties, web, List.of());
    }

    /** With initializers that change the application's beans (e.g. a flusher that fails on purpose). */
    public static ProjectorInstance start(Map<String, String> properties,
                                          List<ApplicationContextInitializer<ConfigurableApplicationContext>> initializers) {
        return start(properties, WebApplicationType.NONE, initializers);
    }

    private static ProjectorInstance start(Map<String, String> properties, WebApplicationType web,
                                           List<ApplicationContextInitializer<ConfigurableApplicationContext>> initializers) {
        // As command-line arguments: they override application.yml, as an operator's environment would.
        String[] arguments = properties.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        ConfigurableApplicationContext context = new SpringApplicationBuilder(ProjectorApplication.class)
                .web(web)
                .initializers(initializers.toArray(ApplicationContextInitializer[]::new))
                .run(arguments);
        return new ProjectorInstance(context);
    }

    public static String uniqueApplicationId() {
        return "projector-test-" + UUID.randomUUID().toString().substring(0, 8);
    }

    public <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    public KafkaStreams streams() {
        return context.getBean(StreamsBuilderFactoryBean.class).getKafkaStreams();
    }

    public Status health() {
        return context.getBean(HealthEndpoint.class).health().getStatus();
    }

    public Status health(String component) {
        return context.getBean(HealthEndpoint.class).healthForPath(component).getStatus();
    }

    /** The details a health indicator gives, by its bean's name (e.g. {@code projectionProgressHealthIndicator}). */
    public Map<String, Object> healthDetails(String indicatorBean) {
        return context.getBean(indicatorBean, HealthIndicator.class).health().getDetails();
    }

    @Override
    public void close() {
        context.close();
    }

    private static Path temporaryDirectory() {
        try {
            Path dir = Files.createTempDirectory("projector-state-");
            dir.toFile().deleteOnExit();
            return dir;
        } catch (IOException e) {
            throw new IllegalStateException("Cannot create a state directory for a test projector", e);
        }
    }
}
