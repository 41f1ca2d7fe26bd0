package org.caseassignments.projector.sink;

import java.time.Clock;

import org.caseassignments.ingest.ProjectionApplier;
import org.caseassignments.projector.ProjectorProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;

/** The PostgreSQL stage's pieces that the Streams topology uses: the retrying flusher and its health. */
@Configuration(proxyBeanMethods = false)
public class SinkConfiguration {

    @Bean
    SinkHealthIndicator projectionSinkHealthIndicator() {
        return new SinkHealthIndicator(Clock.systemUTC());
    }

    @Bean
    Stopping projectionSinkStopping() {
        return new Stopping();
    }

    @Bean
    PendingAssignments.Flusher projectionFlusher(ProjectionApplier applier, ProjectorProperties properties,
                                                 SinkHealthIndicator health, Stopping stopping) {
        return new RetryingFlusher(applier, properties.sink().retry(), health, stopping::isStopping);
    }

    /**
     * Tells the flusher that the application is stopping, before Kafka Streams is closed (a higher phase
     * stops first), so a flush that cannot reach PostgreSQL gives up instead of holding the shutdown.
     */
    static final class Stopping implements SmartLifecycle {

        /** {@link StreamsBuilderFactoryBean}'s default phase. */
        private static final int STREAMS_PHASE = Integer.MAX_VALUE - 1000;

        private volatile boolean running;
        private volatile boolean stopping;

        boolean isStopping() {
            return stopping;
        }

        @Override
        public void start() {
            running = true;
            stopping = false;
        }

        @Override
        public void stop() {
            stopping = true;
            running = false;
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return STREAMS_PHASE + 1;
        }
    }
}
