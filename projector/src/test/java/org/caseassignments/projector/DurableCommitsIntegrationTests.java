package org.caseassignments.projector;

import static org.assertj.core.api.Assertions.assertThat;

import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.caseassignments.projector.testsupport.ProjectorInstance;
import org.caseassignments.projector.testsupport.ProjectorTopics;

/**
 * The projector commits durably whatever the server's default: it commits Kafka offsets for rows PostgreSQL has
 * acknowledged, and with {@code synchronous_commit = off} a PostgreSQL crash could lose such rows while the
 * offsets stay past their events.
 */
class DurableCommitsIntegrationTests {

    @Test
    void shouldRunItsConnectionsWithSynchronousCommitOnWhenTheDatabaseDefaultsToOff() {
        TestDatabase db = TestDatabase.migrated();
        db.jdbc().execute("ALTER DATABASE \"" + db.name() + "\" SET synchronous_commit = off");
        ProjectorTopics topics = ProjectorTopics.unique(1).createEvents();

        try (ProjectorInstance projector = ProjectorInstance.start(db, topics, ProjectorInstance.uniqueApplicationId())) {
            assertThat(projector.bean(JdbcTemplate.class).queryForObject("SHOW synchronous_commit", String.class))
                    .isEqualTo("on");
        }
    }
}
