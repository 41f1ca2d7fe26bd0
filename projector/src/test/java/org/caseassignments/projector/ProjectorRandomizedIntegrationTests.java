package org.caseassignments.projector;

import java.time.Duration;

import org.caseassignments.testkit.EventPublisher;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.CaseHistory;
import org.caseassignments.projector.testsupport.ProjectionRows;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * Randomized histories through the real broker into the real database: the projection and the
 * entity rows end equal to an oracle computed from the events alone, whatever the delivery order, and the
 * history holds every revision the events hold, once.
 */
class ProjectorRandomizedIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();
    private static final ProjectorTopics TOPICS = ProjectorTopics.unique(3).createEvents();

    private static ProjectorInstance projector;

    private final JdbcTemplate jdbc = DB.jdbc();

    @BeforeAll
    static void startProjector() {
        projector = ProjectorInstance.start(DB, TOPICS, ProjectorInstance.uniqueApplicationId());
    }

    @AfterAll
    static void stopProjector() {
        projector.close();
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {11, 4242, 20260801})
    void shouldEndAtTheOracleForReorderedAndDuplicatedDeliveries(long seed) {
        CaseHistory history = CaseHistory.generate(seed, 500, 6);
        history.seedRows(jdbc);

        try (EventPublisher publisher = new EventPublisher()) {
            publisher.publishAll(TOPICS.events(), history.deliveries);
        }

        ProjectionRows.awaitOracle(jdbc, history, Duration.ofSeconds(60));
        ProjectionRows.awaitHistory(jdbc, history, Duration.ofSeconds(60));
    }
}
