package org.caseassignments.projector;

import java.time.Duration;
import java.util.List;

import org.caseassignments.schemas.topics.CaseTopics;
import org.caseassignments.store.AssignmentWriter;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Projector settings ({@code projector.*}); each has an environment-variable override in
 * application.yml. The Kafka bootstrap servers and client security are Spring Boot's
 * {@code spring.kafka.*} settings, shared by every client of the projector; the schema registry is
 * {@code case-events.registry.*} ({@link org.caseassignments.ingest.SchemaRegistryProperties}), shared with the backfill.
 *
 * @param applicationId      Kafka Streams application id: names the input consumer group and, when the
 *                           projection is published, the revision store's changelog topic
 * @param topics             topic names
 * @param partitions         partitions of the topics the projector creates when they do not exist
 * @param publishAssignments also publish every forward change to the compacted {@code case.assignments} topic
 * @param streams            the Kafka Streams application
 * @param sink               the PostgreSQL stage
 * @param health             what readiness checks
 * @param input              where a group with no committed offset starts
 */
@ConfigurationProperties("projector")
public record ProjectorProperties(@DefaultValue("case-assignments-projector") String applicationId,
                                  @DefaultValue Topics topics,
                                  @DefaultValue("3") int partitions,
                                  @DefaultValue("false") boolean publishAssignments,
                                  @DefaultValue Streams streams,
                                  @DefaultValue Sink sink,
                                  @DefaultValue Health health,
                                  @DefaultValue Input input) {

    /**
     * @param startAtLogStart a group with no committed offset on an input partition whose records were deleted (its
     *                        offsets expired, its id changed) starts from the log start even though the projection
     *                        holds rows, skipping the deleted input; false stops the projector by name instead. A
     *                        partition nothing was ever deleted from, or an empty projection, starts there anyway
     */
    public record Input(@DefaultValue("false") boolean startAtLogStart) {
    }

    /**
     * @param maxMessageBytes the largest record of these topics: the {@code max.message.bytes} of the topics the
     *                        projector creates, its producer's {@code max.request.size}, and the size a dead
     *                        letter is cut to (see {@link CaseTopics#maxMessageBytes()}); keep it equal to the
     *                        input topics' limit, and the dead-letter topic's at least as large
     */
    public record Topics(@DefaultValue(CaseTopics.DEFAULT_EVENTS) List<String> events,
                         @DefaultValue(CaseTopics.DEFAULT_ASSIGNMENTS) String assignments,
                         @DefaultValue(CaseTopics.DEFAULT_DEAD_LETTER) String deadLetter,
                         @DefaultValue(CaseTopics.DEFAULT_MAX_MESSAGE_BYTES) int maxMessageBytes) {
    }

    /**
     * @param stateDir       where Kafka Streams keeps its state (the revision store, when the projection is published)
     * @param commitInterval how often Kafka Streams commits at the latest: the longest an event waits to be
     *                       written while the projector is behind (earlier when it keeps up; see {@link Sink})
     * @param threads        stream threads of this instance; each writes its tasks' batches on its own
     *                       connection, so one thread can read while another waits for PostgreSQL (more
     *                       threads than input partitions stay idle; the connection pool must hold one each)
     */
    public record Streams(String stateDir,
                          @DefaultValue("15s") Duration commitInterval,
                          @DefaultValue("3") int threads) {
    }

    /**
     * @param checkEvery      how often each task checks whether to write or commit what it gathered
     * @param freshWithin     events at most this old are live: a task holding them writes them at its next check
     * @param liveCommitEvery a task that wrote live events commits their offsets once the first write since its
     *                        last commit is this old: how far a live projector's committed offsets trail
     * @param quietAfter      a task that received no event for this long (while not writing) commits too; one whose
     *                        checks found nothing pending for this long starts its next backlog small again
     * @param maxPendingCases distinct cases a task gathers at most before it commits
     * @param maxPendingBytes heap the events this instance's tasks gather may keep together, as their objects take it
     *                        (the records they came in, headers included, and the revisions set aside for the
     *                        history): each processing task has an equal share, and reaching it writes what it holds
     *                        at once
     * @param writeWithin     a task that is behind writes what it took at the first check after the oldest of it is
     *                        this old: a backlog is written as it is read, its later batches growing (decision 47)
     * @param retry           backoff while PostgreSQL fails
     * @param maxQueuedCases  how many cases' queues one write transaction takes at most when API writes hold some of
     *                        its cases: each is an entry of PostgreSQL's shared lock table (decision 33)
     */
    public record Sink(@DefaultValue("25ms") Duration checkEvery,
                       @DefaultValue("1s") Duration freshWithin,
                       @DefaultValue("500ms") Duration quietAfter,
                       @DefaultValue("200000") int maxPendingCases,
                       @DefaultValue("1s") Duration liveCommitEvery,
                       @DefaultValue("96MB") DataSize maxPendingBytes,
                       @DefaultValue("50ms") Duration writeWithin,
                       @DefaultValue Retry retry,
                       @DefaultValue("" + AssignmentWriter.DEFAULT_MAX_QUEUED_CASES) int maxQueuedCases) {
    }

    /**
     * @param maxCommitDelay readiness is DOWN while a task holds events it has not committed for longer than this
     * @param maxStall       readiness is DOWN while an input partition this instance reads has input beyond its
     *                       committed offset and that offset has not moved for longer than this
     * @param maxWrite       liveness is DOWN while a stream thread has been in one transaction of a batch's write
     *                       (or one pause between attempts) for longer than this (keep it well above the connections'
     *                       {@code socketTimeout}, which ends such a transaction first when the socket went silent,
     *                       and above {@code sink.retry.max-interval})
     * @param maxRestarts    liveness is DOWN while the instance's stream threads, all together, were replaced after a
     *                       failure more than this many times within {@code restartWindow} (a replaced thread comes
     *                       back under a new name: raise it with {@code streams.threads})
     * @param restartWindow  the window {@code maxRestarts} counts in
     */
    public record Health(@DefaultValue("2m") Duration maxCommitDelay,
                         @DefaultValue("2m") Duration maxStall,
                         @DefaultValue("10m") Duration maxWrite,
                         @DefaultValue("5") int maxRestarts,
                         @DefaultValue("10m") Duration restartWindow) {
    }

    /** Exponential backoff between attempts to apply a failed batch; it never gives up. */
    public record Retry(@DefaultValue("200ms") Duration initialInterval,
                        @DefaultValue("2.0") double multiplier,
                        @DefaultValue("10s") Duration maxInterval) {
    }
}
