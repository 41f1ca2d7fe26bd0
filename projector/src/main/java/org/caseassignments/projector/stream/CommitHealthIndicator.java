package org.caseassignments.projector.stream;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * Part of readiness: DOWN while a task of this instance holds events it has not been able to commit for
 * longer than {@code projector.health.max-commit-delay}, whatever the cause (PostgreSQL failing, a
 * dead letter or a commit the broker refuses, a stream thread replaced over and over); UP again by
 * itself once the task commits. A task that keeps up commits about once a second ({@code live-commit-every}), and one that is behind
 * at the Streams commit interval (15 s), so the bound is far above either.
 */
final class CommitHealthIndicator implements HealthIndicator {

    private static final Logger log = LoggerFactory.getLogger(CommitHealthIndicator.class);

    private final UncommittedWork work;
    private final Duration bound;
    private volatile boolean down;

    CommitHealthIndicator(UncommittedWork work, Duration bound) {
        this.work = work;
        this.bound = bound;
    }

    @Override
    public Health health() {
        List<UncommittedWork.Stalled> stalled = work.stalled(bound);
        if (stalled.isEmpty()) {
            if (down) {
                down = false;
                log.warn("Every task commits again within {}", bound);
            }
            return Health.up().withDetail("maxCommitDelay", bound.toString()).build();
        }
        UncommittedWork.Stalled oldest = stalled.get(0);
        String reason = "task " + oldest.task() + " has not committed its input for " + oldest.age().toSeconds()
                + " s (bound " + bound.toSeconds() + " s): its oldest uncommitted event was taken at " + oldest.since();
        if (!down) {
            down = true;
            log.warn("Not ready: {}", reason);
        }
        Map<String, Object> tasks = new LinkedHashMap<>();
        stalled.forEach(s -> tasks.put(s.task(), Map.of("uncommittedSince", s.since().toString(),
                "seconds", s.age().toSeconds())));
        return Health.down().withDetail("reason", reason).withDetail("maxCommitDelay", bound.toString())
                .withDetail("stalledTasks", tasks).build();
    }
}
