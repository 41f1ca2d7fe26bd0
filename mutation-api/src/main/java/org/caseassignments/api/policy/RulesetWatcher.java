package org.caseassignments.api.policy;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Polls the ruleset directory by calling {@link RulesetRegistry#reload()} at a fixed delay on one
 * daemon thread. Polling rather than a file-system watch service: it behaves the same on every file
 * system (including mounted config maps), and a reload of unchanged files costs a directory listing
 * and a hash per file. A failed reload is logged and the rulesets in force stay.
 */
final class RulesetWatcher implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(RulesetWatcher.class);

    private final RulesetRegistry registry;
    private final Duration interval;
    private ScheduledExecutorService scheduler;

    RulesetWatcher(RulesetRegistry registry, Duration interval) {
        this.registry = registry;
        this.interval = interval;
    }

    @Override
    public synchronized void start() {
        if (interval.isZero() || scheduler != null) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "ruleset-reload");
            thread.setDaemon(true);
            return thread;
        });
        long millis = interval.toMillis();
        scheduler.scheduleWithFixedDelay(this::reload, millis, millis, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return scheduler != null;
    }

    private void reload() {
        try {
            registry.reload();
        } catch (RuntimeException e) {
            log.error("Ruleset reload failed: {}; the rulesets in force keep serving", e.getMessage(), e);
        }
    }
}
