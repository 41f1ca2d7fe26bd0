package org.caseassignments.api.audit;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Refusal records, off the request path: a request only offers its record to a bounded in-memory
 * queue and never waits; one thread drains it in batches of {@code api.audit.refusal-batch-size}, each
 * batch one transaction on a connection of its own (pool {@value #POOL_NAME}, one connection), never one
 * of the request pool. A flood of refusals therefore costs the request pool nothing; what the queue has
 * no room for is logged (logger {@value #FALLBACK_LOG}) and counted ({@value #DROPPED_METRIC}), as is a
 * batch the database refused.
 */
@Component
class RefusalWriter implements SmartLifecycle {

    static final String POOL_NAME = "audit-refusals";
    static final String FALLBACK_LOG = "org.caseassignments.api.audit.refusals";
    static final String DROPPED_METRIC = "audit.refusals.dropped";
    static final String WRITTEN_METRIC = "audit.refusals.written";
    static final String QUEUED_METRIC = "audit.refusals.queued";
    static final String CAPACITY_METRIC = "audit.refusals.queue.capacity";
    static final String SUMMARISED_METRIC = "audit.refusals.summarised";

    private static final Logger LOG = LoggerFactory.getLogger(RefusalWriter.class);
    private static final Logger FALLBACK = LoggerFactory.getLogger(FALLBACK_LOG);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    /** Every refusal but the cross-jurisdiction ones, which only overflow into it. */
    private final BlockingQueue<AuditEntry> queue;
    /** The reserved share: refusals of another jurisdiction's records, which an auditor most needs to see. */
    private final BlockingQueue<AuditEntry> crossJurisdiction;
    private final RefusalBudget budget;
    private final Counter summarised;
    private final int batchSize;
    private final DataSource requestPool;
    private final Counter droppedFull;
    private final Counter droppedFailed;
    private final Counter written;
    private volatile HikariDataSource connection;
    private volatile Thread thread;
    private volatile boolean running;

    RefusalWriter(AuditProperties properties, DataSource requestPool, MeterRegistry meters) {
        int reserved = properties.refusalQueueCapacity() * properties.crossJurisdictionReserve() / 100;
        this.queue = new ArrayBlockingQueue<>(Math.max(1, properties.refusalQueueCapacity() - reserved));
        this.crossJurisdiction = new ArrayBlockingQueue<>(Math.max(1, reserved));
        this.budget = new RefusalBudget(properties.refusalBudget(), properties.refusalBudgetWindow(), Clock.systemUTC());
        this.summarised = Counter.builder(SUMMARISED_METRIC).register(meters);
        this.batchSize = properties.refusalBatchSize();
        this.requestPool = requestPool;
        this.droppedFull = Counter.builder(DROPPED_METRIC).tag("reason", "queue_full").register(meters);
        this.droppedFailed = Counter.builder(DROPPED_METRIC).tag("reason", "write_failed").register(meters);
        this.written = Counter.builder(WRITTEN_METRIC).register(meters);
        Gauge.builder(QUEUED_METRIC, this, writer -> writer.queue.size() + writer.crossJurisdiction.size()).register(meters);
        Gauge.builder(CAPACITY_METRIC, this, writer -> writer.queue.remainingCapacity() + writer.queue.size()
                + writer.crossJurisdiction.remainingCapacity() + writer.crossJurisdiction.size()).register(meters);
    }

    /**
     * Never blocks: a refusal over its subject's budget is only counted (and summarised later); a full queue logs
     * the record and counts it as dropped, as does a writer that has stopped. A cross-jurisdiction refusal goes to
     * the reserved share first and overflows into the shared one.
     */
    void offer(AuditEntry entry) {
        if (!running) {
            droppedFailed.increment();
            FALLBACK.warn("audit refusal not stored (writer stopped): {}", entry.logLine());
        } else if (!budget.admit(entry)) {
            summarised.increment();
        } else {
            enqueue(entry);
        }
    }

    private void enqueue(AuditEntry entry) {
        if (!(entry.crossJurisdiction() && crossJurisdiction.offer(entry)) && !queue.offer(entry)) {
            droppedFull.increment();
            FALLBACK.warn("audit refusal not stored (queue full): {}", entry.logLine());
        }
    }

    /** Before the web server starts and after it has drained its requests on shutdown. */
    @Override
    public int getPhase() {
        return SmartLifecycle.DEFAULT_PHASE - 4096;
    }

    @Override
    public void start() {
        connection = ownConnection(requestPool);
        running = true;
        thread = new Thread(this::drain, "audit-refusal-writer");
        thread.setDaemon(true);
        thread.start();
    }

    @Override
    public void stop() {
        running = false;
        Thread writer = thread;
        if (writer != null) {
            try {
                writer.join(STOP_WAIT.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        List<AuditEntry> left = new ArrayList<>(budget.closeExpired());
        crossJurisdiction.drainTo(left);
        queue.drainTo(left);
        left.forEach(entry -> {
            droppedFailed.increment();
            FALLBACK.warn("audit refusal not stored (shutting down): {}", entry.logLine());
        });
        if (connection != null) {
            connection.close();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    /**
     * Until stopped, and then until the queue is empty: each round first queues the summaries of budget windows
     * that are over, then takes the reserved share's records, then fills the batch from the shared part.
     */
    private void drain() {
        List<AuditEntry> batch = new ArrayList<>(batchSize);
        while (running || !queue.isEmpty() || !crossJurisdiction.isEmpty()) {
            try {
                budget.closeExpired().forEach(this::enqueue);
                crossJurisdiction.drainTo(batch, batchSize);
                if (batch.isEmpty()) {
                    AuditEntry first = queue.poll(POLL.toMillis(), TimeUnit.MILLISECONDS);
                    if (first != null) {
                        batch.add(first);
                    }
                }
                queue.drainTo(batch, batchSize - batch.size());
                if (batch.isEmpty()) {
                    continue;
                }
                write(batch);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException e) {
                LOG.error("The audit refusal writer failed; it carries on with the next batch", e);
            } finally {
                batch.clear();
            }
        }
    }

    /** One transaction; a failed batch is rolled back, logged record by record and counted. */
    private void write(List<AuditEntry> batch) {
        try (Connection db = connection.getConnection()) {
            db.setAutoCommit(false);
            try (PreparedStatement insert = db.prepareStatement(AuditRecords.INSERT)) {
                for (AuditEntry entry : batch) {
                    AuditRecords.bind(insert, entry);
                    insert.addBatch();
                }
                insert.executeBatch();
                db.commit();
                written.increment(batch.size());
            } catch (SQLException | RuntimeException e) {
                db.rollback();
                throw e;
            }
        } catch (SQLException | RuntimeException e) {
            LOG.error("Could not store {} audit refusal records; each is logged to {}", batch.size(), FALLBACK_LOG, e);
            batch.forEach(entry -> {
                droppedFailed.increment();
                FALLBACK.warn("audit refusal not stored (write failed): {}", entry.logLine());
            });
        }
    }

    /** The request pool's settings (URL, login, SET ROLE) on a pool of one connection of its own. */
    private static HikariDataSource ownConnection(DataSource requestPool) {
        if (!(requestPool instanceof HikariDataSource hikari)) {
            throw new IllegalStateException("The audit refusal writer copies the settings of a Hikari pool; the "
                    + "datasource is a " + requestPool.getClass().getName());
        }
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(hikari.getJdbcUrl());
        config.setUsername(hikari.getUsername());
        config.setPassword(hikari.getPassword());
        if (hikari.getDriverClassName() != null) {
            config.setDriverClassName(hikari.getDriverClassName());
        }
        hikari.getDataSourceProperties().forEach((key, value) -> config.addDataSourceProperty(key.toString(), value));
        config.setConnectionInitSql(hikari.getConnectionInitSql());
        config.setPoolName(POOL_NAME);
        config.setMaximumPoolSize(1);
        config.setMinimumIdle(0);
        // refusals come in bursts; between them the writer holds no connection
        config.setIdleTimeout(Duration.ofSeconds(10).toMillis());
        // a database that is down at startup fails refusal batches (logged, counted), not the startup
        config.setInitializationFailTimeout(-1);
        config.setRegisterMbeans(false);
        config.addDataSourceProperty("ApplicationName", POOL_NAME);
        return new HikariDataSource(config);
    }
}
