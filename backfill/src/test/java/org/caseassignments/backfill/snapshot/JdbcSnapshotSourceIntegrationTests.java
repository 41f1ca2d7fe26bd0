package org.caseassignments.backfill.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;

class JdbcSnapshotSourceIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();

    @Test
    void shouldKeepTheUrlsCredentialsOutOfTheSourcesIdentityWhichCheckpointsAndLogsCarry() {
        String url = DB.jdbcUrl() + (DB.jdbcUrl().contains("?") ? "&" : "?") + "user=" + DB.username()
                + "&password=" + DB.password() + "-in-the-url";
        String withUserInfo = url.replaceFirst("//", "//" + DB.username() + ":s3cret-userinfo@");

        JdbcSnapshotSource source = new JdbcSnapshotSource(url, DB.username(), DB.password(),
                "SELECT case_id, assigned_worker_sub, supervisor_sub, assignment_revision FROM case_assignments", 100);
        try {
            assertThat(source.identity().description()).contains("jdbc ", "query SELECT case_id")
                    .doesNotContain(DB.password() + "-in-the-url").contains("password=***");
        } finally {
            source.close();
        }
        assertThat(JdbcSnapshotSource.redacted(withUserInfo)).doesNotContain("s3cret-userinfo", "-in-the-url")
                .contains("//" + DB.username() + ":***@");
    }
}
