package org.caseassignments.projector.stream;

import java.time.Clock;

import io.micrometer.core.instrument.MeterRegistry;
import org.caseassignments.ingest.BatchWriter;
import org.caseassignments.ingest.IngestMetrics;
import org.caseassignments.projector.ProjectorProperties;
import org.caseassignments.store.AssignmentWriter;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.kafka.config.StreamsBuilderFactoryBean;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * The PostgreSQL stage's pieces that the Streams topology uses: the batch writer, and the health of both (readiness:
 * failing attempts and late commits; liveness: an attempt that never ends).
 */
@Configuration(proxyBeanMethods = false)
public class SinkConfiguration {

    @Bean
    SinkHealthIndicator projectionSinkHealthIndicator() {
        return new SinkHealthIndicator(Clock.systemUTC());
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
    StuckWriteHealthIndicator projectionWritesHealthIndicator(ProjectorProperties properties) {
        return new StuckWriteHealthIndicator(Clock.systemUTC(), properties.health().maxWrite());
    }

    @Bean
    Stopping projectionSinkStopping() {
        return new Stopping();
    }

    /**
     * The one batch writer: retries a transient failure with exponential backoff, forever, on the stream
     * thread (no offset moves meanwhile), reporting each attempt to the sink's health; it gives up only when
     * the application is stopping, leaving the batch uncommitted in Kafka to be read again.
     */
    @Bean
    BatchWriter projectionBatchWriter(TransactionTemplate transaction, AssignmentWriter writer, IngestMetrics metrics,
                                      ProjectorProperties properties, SinkHealthIndicator health,
                                      StuckWriteHealthIndicator writes, Stopping stopping) {
        ProjectorProperties.Retry retry = properties.sink().retry();
        ExponentialBackOff backOff = new ExponentialBackOff(retry.initialInterval().toMillis(), retry.multiplier());
        backOff.setMaxInterval(retry.maxInterval().toMillis());
        backOff.setMaxElapsedTime(Long.MAX_VALUE);
        backOff.setMaxAttempts(Integer.MAX_VALUE);
        BatchWriter.Attempts attempts = new BatchWriter.Attempts() {
            @Override
            public void failed(RuntimeException error) {
                writes.attemptFailed();
                health.failed(error);
            }

            @Override
            public void written(int events) {
                health.written(events);
            }

            @Override
            public void transactionEnded() {
                writes.transactionEnded();
            }
        };
        return new BatchWriter(transaction, writer, metrics, backOff, stopping::isStopping, attempts);
    }

    /** Writes each batch through the batch writer, timing each of its transactions for liveness. */
    @Bean
    PendingAssignments.Flusher projectionFlusher(BatchWriter writer, StuckWriteHealthIndicator writes) {
        PendingAssignments.Flusher through = PendingAssignments.Flusher.through(writer);
        return (pending, setAside, events) -> {
            writes.began();
            try {
                return through.apply(pending, setAside, events);
            } finally {
                writes.ended();
            }
        };
    }

    /**
     * Tells the batch writer that the application is stopping, before Kafka Streams is closed (a higher phase
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
