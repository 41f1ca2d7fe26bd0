package org.caseassignments.projector;

import java.util.List;

import org.caseassignments.schemas.topics.CaseTopics;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Projector settings ({@code projector.*}); each has an environment-variable override in application.yml.
 *
 * @param topics     topic names
 * @param partitions partitions of the topics the projector creates when they do not exist
 */
@ConfigurationProperties("projector")
public record ProjectorProperties(@DefaultValue Topics topics, @DefaultValue("3") int partitions) {

    public record Topics(@DefaultValue(CaseTopics.DEFAULT_EVENTS) List<String> events,
                         @DefaultValue(CaseTopics.DEFAULT_ASSIGNMENTS) String assignments,
                         @DefaultValue(CaseTopics.DEFAULT_DEAD_LETTER) String deadLetter) {
    }
}
