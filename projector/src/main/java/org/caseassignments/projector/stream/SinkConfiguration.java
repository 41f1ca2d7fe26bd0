package org.caseassignments.projector.stream;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.projector.ProjectorProperties;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.store.BatchWriter;
import org.caseassignments.store.StopSignal;
import org.caseassignments.store.WriterHealth;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * The PostgreSQL stage's pieces that the Streams topology uses: the batch writer, and the health of both (readiness:
 * failing attempts and late commits; liveness: an attempt that never ends), read from what the writer keeps.
 */
@Configuration(proxyBeanMethods = false)
public class SinkConfiguration {

    /** What the stream threads writing through the batch writer are doing: the two health indicators below read it. */
    @Bean
    WriterHealth projectionWriterHealth() {
        return WriterHealth.watched(Clock.systemUTC());
    }

    @Bean
    SinkHealthIndicator projectionSinkHealthIndicator(WriterHealth writer) {
        return new SinkHealthIndicator(writer);
    }

    @Bean
    UncommittedWork uncommittedWork(MeterRegistry registry, ProjectorProperties properties) {
        return new UncommittedWork(Clock.systemUTC(), registry, properties.health().maxCommitDelay());
    }

    @Bean
    CommitHealthIndicator projectionCommitsHealthIndicator(UncommittedWork work, ProjectorProperties properties) {
        return new CommitHealthIndicator(work, properties.health().maxCommitDelay());
    }

    @Bean
    StuckWriteHealthIndicator projectionWritesHealthIndicator(ProjectorProperties properties, WriterHealth writer) {
        return new StuckWriteHealthIndicator(Clock.systemUTC(), properties.health().maxWrite(), writer);
    }

    @Bean
    Stopping projectionSinkStopping() {
        return new Stopping();
    }

    /**
     * The one batch writer: retries a transient failure with exponential backoff, forever, on the stream
     * thread (no offset moves meanwhile), keeping what each attempt did for the sink's health; it gives up only when
     * the application is stopping, leaving the batch uncommitted in Kafka to be read again.
     */
    @Bean
    BatchWriter projectionBatchWriter(TransactionTemplate transaction, AssignmentWriter writer, IngestMetrics metrics,
                                      ProjectorProperties properties, WriterHealth health, Stopping stopping) {
        ProjectorProperties.Retry retry = properties.sink().retry();
        ExponentialBackOff backOff = new ExponentialBackOff(retry.initialInterval().toMillis(), retry.multiplier());
        backOff.setMaxInterval(retry.maxInterval().toMillis());
        backOff.setMaxElapsedTime(Long.MAX_VALUE);
        backOff.setMaxAttempts(Integer.MAX_VALUE);
        return new BatchWriter(transaction, writer, metrics.write(), backOff, stopping.signal, health);
    }

    /** Writes each batch through the batch writer. */
    @Bean
    PendingAssignments.Flusher projectionFlusher(BatchWriter writer) {
        return PendingAssignments.Flusher.through(writer);
    }

    /**
     * Tells the batch writer that the application is stopping, before Kafka Streams is closed (a higher phase
     * stops first), so a flush that cannot reach PostgreSQL gives up instead of holding the shutdown.
     */
    static final class Stopping implements SmartLifecycle {

        /** {@link StreamsBuilderFactoryBean}'s default phase. */
        private static final int STREAMS_PHASE = Integer.MAX_VALUE - 1000;

        private final StopSignal signal = new StopSignal();
        private volatile boolean running;

        @Override
        public void start() {
            running = true;
            signal.lower();
        }

        @Override
        public void stop() {
            signal.raise();
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
