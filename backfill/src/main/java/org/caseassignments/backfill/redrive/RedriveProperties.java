package org.caseassignments.backfill.redrive;

import java.util.List;

import org.caseassignments.schemas.topics.CaseTopics;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Redrive settings ({@code backfill.redrive.*}), overridable by an environment variable in application.yml and by a
 * command-line option.
 *
 * @param deadLetterTopic the dead-letter topic it reads (the replay's and the projector's)
 * @param topics          the input topics: only letters of their records are re-driven (the replay's and the
 *                        projector's {@code CASE_EVENTS_TOPICS})
 */
@ConfigurationProperties("backfill.redrive")
record RedriveProperties(@DefaultValue(CaseTopics.DEFAULT_DEAD_LETTER) String deadLetterTopic,
                         @DefaultValue(CaseTopics.DEFAULT_EVENTS) List<String> topics) {
}
