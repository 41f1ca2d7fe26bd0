package org.caseassignments.backfill.rebuild;

import java.time.Duration;
import java.util.List;

import org.caseassignments.schemas.topics.CaseTopics;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Rebuild settings ({@code backfill.rebuild.*}), each overridable by an environment variable in application.yml
 * and by a command-line option.
 *
 * @param topics           the case event topics (the same setting as the replay's)
 * @param swapWithin       the longest the swap holds the projection's lock: the tail is caught up outside the lock
 *                         until it fits, and a swap that runs past it gives way and tries again
 * @param swapLockTimeout  how long one attempt waits for the lock; while it waits every new reader and writer of the
 *                         projection queues behind it, so this too bounds the pause
 * @param swapAttempts     attempts at the lock before the rebuild gives up (the shadow is kept)
 */
@ConfigurationProperties("backfill.rebuild")
record RebuildProperties(@DefaultValue(CaseTopics.DEFAULT_EVENTS) List<String> topics,
                         @DefaultValue("1s") Duration swapWithin,
                         @DefaultValue("500ms") Duration swapLockTimeout,
                         @DefaultValue("20") int swapAttempts) {
}
