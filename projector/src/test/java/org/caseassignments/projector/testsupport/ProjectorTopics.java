package org.caseassignments.projector.testsupport;

import org.caseassignments.testkit.TestKafka;

/** One test class's own topic names, so classes never see each other's records. */
public record ProjectorTopics(String events, String assignments, String deadLetter, int partitions) {

    public static ProjectorTopics unique(int partitions) {
        String events = TestKafka.uniqueTopic("case.events");
        return new ProjectorTopics(events, events + ".assignments", events + ".dlq", partitions);
    }

    /** Creates the input topic, for tests that publish before a projector has started. */
    public ProjectorTopics createEvents() {
        TestKafka.createTopics(partitions, events);
        return this;
    }
}
