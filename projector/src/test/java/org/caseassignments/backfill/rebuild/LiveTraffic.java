package org.caseassignments.backfill.rebuild;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.avro.specific.SpecificRecord;
import org.caseassignments.projector.ProjectorPerformance;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.CaseEvents;
import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Live traffic for {@link RebuildPerformance}: every 100 ms, a tenth of {@code rate} changes to cases in turn, each
 * at the case's next revision, published to the topic and then applied to the live table in one transaction through
 * the guarded writer — a projector with no lag, which waits for the swap's lock like the real one. Keeps the longest
 * round (publish and apply) it took: what the rebuild made the projector wait, at most.
 */
final class LiveTraffic implements AutoCloseable {

    private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor();
    private final EventPublisher publisher = new EventPublisher();
    private final AssignmentWriter live;
    private final TransactionTemplate transactions;
    private final Map<UUID, Long> revisions = new HashMap<>();
    private final List<UUID> cases;
    private final int rate;
    private int next;
    private long sent;
    private long longestNanos;

    LiveTraffic(TestDatabase db, String topic, List<ProjectorPerformance.Event> history, int rate) {
        this.live = new AssignmentWriter(db.jdbc());
        this.transactions = new TransactionTemplate(new DataSourceTransactionManager(db.dataSource()));
        history.forEach(e -> revisions.merge(e.caseId(), e.revision(), Math::max));
        this.cases = new ArrayList<>(revisions.keySet());
        this.rate = rate;
        if (rate > 0) {
            clock.scheduleAtFixedRate(() -> round(topic), 0, 100, TimeUnit.MILLISECONDS);
        }
    }

    private void round(String topic) {
        long start = System.nanoTime();
        List<SpecificRecord> events = new ArrayList<>();
        List<AssignmentUpdate> updates = new ArrayList<>();
        for (int i = 0; i < Math.max(1, rate / 10); i++) {
            UUID caseId = cases.get(next++ % cases.size());
            long revision = revisions.merge(caseId, 1L, Long::sum);
            events.add(CaseEvents.changed(caseId, revision).worker("w-live-" + revision).supervisor("s-live").build());
            updates.add(AssignmentUpdate.changed(caseId, "w-live-" + revision, "s-live", revision));
        }
        publisher.publishAll(topic, events);
        transactions.executeWithoutResult(status -> live.apply(updates));
        sent += events.size();
        longestNanos = Math.max(longestNanos, System.nanoTime() - start);
    }

    void report() {
        if (rate > 0) {
            System.out.printf("live traffic: %,d events at %d/s, each round published and applied; longest round %.0f ms%n",
                    sent, rate, longestNanos / 1e6);
        }
    }

    @Override
    public void close() throws InterruptedException {
        clock.shutdown();
        clock.awaitTermination(30, TimeUnit.SECONDS);
        publisher.close();
    }
}
