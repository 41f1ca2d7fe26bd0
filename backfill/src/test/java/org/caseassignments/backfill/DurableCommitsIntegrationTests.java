package org.caseassignments.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The jobs commit durably whatever the server's default: a batch they report as committed (and whose offsets a
 * replay then commits) survives a PostgreSQL crash.
 */
@RealDatabaseTest
class DurableCommitsIntegrationTests {

    static final TestDatabase DB = serverDefaultingToAsynchronousCommits();

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void shouldRunItsConnectionsWithSynchronousCommitOnWhenTheDatabaseDefaultsToOff() {
        assertThat(jdbc.queryForObject("SHOW synchronous_commit", String.class)).isEqualTo("on");
    }

    private static TestDatabase serverDefaultingToAsynchronousCommits() {
        TestDatabase db = TestDatabase.migrated();
        db.jdbc().execute("ALTER DATABASE \"" + db.name() + "\" SET synchronous_commit = off");
        return db;
    }
}
