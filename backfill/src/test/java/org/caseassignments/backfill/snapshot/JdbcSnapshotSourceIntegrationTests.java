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
        assertThat(SourceIdentity.redacted(withUserInfo)).doesNotContain("s3cret-userinfo", "-in-the-url")
                .contains("//" + DB.username() + ":***@");
    }

    @Test
    void shouldRedactEverySecretAJdbcUrlMayCarryWhateverTheDriverCallsIt() {
        assertThat(SourceIdentity.redacted("jdbc:postgresql://db/snap?sslmode=verify-full&sslpassword=key-s3cret"))
                .doesNotContain("key-s3cret").contains("sslmode=verify-full");
        assertThat(SourceIdentity.redacted("jdbc:sqlserver://db;databaseName=snap;PWD=pwd-s3cret;accessToken=tok-s3cret"))
                .doesNotContain("pwd-s3cret", "tok-s3cret").contains("databaseName=snap");
        assertThat(SourceIdentity.redacted("jdbc:mysql://db/snap?password1=one-s3cret&trustCertificateKeyStorePassword=ks-s3cret"))
                .doesNotContain("one-s3cret", "ks-s3cret");
        assertThat(SourceIdentity.redacted("jdbc:oracle:thin:scott/tiger-s3cret@db:1521/snap"))
                .doesNotContain("tiger-s3cret").contains("scott/***@db:1521/snap");
    }
}
