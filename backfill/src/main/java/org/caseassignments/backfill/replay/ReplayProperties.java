package org.caseassignments.backfill.replay;

import java.util.List;

import org.caseassignments.schemas.topics.CaseTopics;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Replay settings ({@code backfill.replay.*}), each overridable by an environment variable in
 * application.yml and by a command-line option.
 *
 * @param topics          the case event topics
 * @param deadLetterTopic where records that fail to decode or validate go
 * @param groupId         the replay's own consumer group (never the projector's)
 * @param maxMessageBytes the largest record of the topics: a dead letter is cut to it, and it is the dead-letter
 *                        producer's {@code max.request.size} (the projector's same setting)
 */
@ConfigurationProperties("backfill.replay")
record ReplayProperties(@DefaultValue(CaseTopics.DEFAULT_EVENTS) List<String> topics,
                        @DefaultValue(CaseTopics.DEFAULT_DEAD_LETTER) String deadLetterTopic,
                        @DefaultValue("case-assignments-replay") String groupId,
                        @DefaultValue(CaseTopics.DEFAULT_MAX_MESSAGE_BYTES) int maxMessageBytes) {

    ReplayProperties {
        CaseTopics.requireUsableSize(maxMessageBytes);
    }
}
