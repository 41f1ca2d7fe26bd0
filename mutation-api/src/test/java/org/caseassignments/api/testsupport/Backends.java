package org.caseassignments.api.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Observes PostgreSQL backends of the test's database: who waits on a lock, and behind whom. The
 * proof that a request has reached a given statement, without sleeping.
 */
public final class Backends {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    private final JdbcTemplate jdbc;

    public Backends(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Waits until some backend is blocked by {@code pid}; returns the blocked ones' pids. */
    public List<Integer> awaitBlockedBy(int pid) {
        return await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(20))
                .alias("a backend waiting for a lock held by backend " + pid)
                .until(() -> blockedBy(pid), blocked -> !blocked.isEmpty());
    }

    /** Waits until {@code count} backends of this database wait for locks. */
    public void awaitWaitingForLocks(int count) {
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(20))
                .alias(count + " backends waiting for locks")
                .until(this::waitingForLocks, waiting -> waiting >= count);
    }

    /**
     * Sends {@code request} while {@code holder} holds its locks and returns the answer; fails as soon as a backend waits
     * for a lock the holder holds instead: the request ran a statement on what the holder locked. The request still
     * waiting then is answered once the holder ends.
     */
    public Reply answeredWithoutWaitingFor(OpenTransaction holder, ApiClient api, ApiClient.Request request) {
        CompletableFuture<Reply> answer = api.sendAsync(request);
        await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(20))
                .alias("the answer to " + request + ", or a backend waiting for a lock held by backend " + holder.pid())
                .until(() -> answer.isDone() || !blockedBy(holder.pid()).isEmpty());
        assertThat(blockedBy(holder.pid())).as("backends waiting for what backend %d locked while %s was answered",
                holder.pid(), request).isEmpty();
        return answer.join();
    }

    public List<Integer> blockedBy(int pid) {
        return jdbc.queryForList("""
                SELECT pid FROM pg_stat_activity
                 WHERE datname = current_database() AND ? = ANY (pg_blocking_pids(pid))
                """, Integer.class, pid);
    }

    public int waitingForLocks() {
        Integer waiting = jdbc.queryForObject("""
                SELECT count(*) FROM pg_stat_activity
                 WHERE datname = current_database() AND wait_event_type = 'Lock'
                """, Integer.class);
        return waiting == null ? 0 : waiting;
    }
}
