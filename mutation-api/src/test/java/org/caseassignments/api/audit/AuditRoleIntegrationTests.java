package org.caseassignments.api.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import java.util.UUID;

import org.caseassignments.api.testsupport.TestApplication;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The connections the API works with may insert and read audit records and nothing else: UPDATE, DELETE
 * and TRUNCATE are refused by PostgreSQL (insufficient_privilege), on the table and on its partitions.
 */
@RealDatabaseTest(kafka = false, with = TestApplication.class)
class AuditRoleIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    private static final String INSUFFICIENT_PRIVILEGE = "42501";

    /** The application's own pool, as every request uses it. */
    @Autowired
    JdbcTemplate api;

    @Test
    void shouldWorkAsTheApiRoleOnEveryConnectionOfThePool() {
        assertThat(api.queryForObject("SELECT current_user", String.class)).isEqualTo("case_assignments_api");
    }

    @Test
    void shouldLetTheApiRoleInsertAndReadARecord() {
        UUID resource = UUID.randomUUID();

        insertAs(api, resource);

        assertThat(api.queryForObject("SELECT count(*) FROM audit_records WHERE resource_id = ?", Long.class, resource))
                .isEqualTo(1L);
    }

    @Test
    void shouldRefuseUpdateDeleteAndTruncateByTheApiRole() {
        UUID resource = UUID.randomUUID();
        insertAs(api, resource);

        assertRefused(() -> api.update("UPDATE audit_records SET caller_sub = 'someone-else' WHERE resource_id = ?",
                resource));
        assertRefused(() -> api.update("DELETE FROM audit_records WHERE resource_id = ?", resource));
        assertRefused(() -> api.execute("TRUNCATE audit_records"));
        String partition = DB.jdbc().queryForObject("""
                SELECT tableoid::regclass::text FROM audit_records WHERE resource_id = ?""", String.class, resource);
        assertRefused(() -> api.update("UPDATE " + partition + " SET caller_sub = 'someone-else' WHERE resource_id = ?",
                resource));
        assertRefused(() -> api.update("DELETE FROM " + partition + " WHERE resource_id = ?", resource));

        assertThat(DB.jdbc().queryForObject("SELECT caller_sub FROM audit_records WHERE resource_id = ?", String.class,
                resource)).isEqualTo("auditor-test");
    }

    @Test
    void shouldRefuseTheApiRoleCreatingOrDetachingPartitionsItself() {
        assertRefused(() -> api.execute("""
                CREATE TABLE audit_records_y2100m01 PARTITION OF audit_records
                   FOR VALUES FROM ('2100-01-01 00:00:00+00') TO ('2100-02-01 00:00:00+00')"""));
        String partition = DB.jdbc().queryForObject("""
                SELECT 'audit_records_' || to_char(now() AT TIME ZONE 'UTC', '"y"YYYY"m"MM')""", String.class);
        assertRefused(() -> api.execute("ALTER TABLE audit_records DETACH PARTITION " + partition));
    }

    @Test
    void shouldLetTheApiRoleCreatePartitionsAheadOnlyThroughTheOwnersFunction() {
        Integer created = api.queryForObject("SELECT audit_records_ensure_partitions(6)", Integer.class);

        assertThat(created).isBetween(0, 3);
        assertThat(DB.jdbc().queryForObject("""
                SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
                 WHERE i.inhparent = 'audit_records'::regclass AND pg_get_userbyid(c.relowner) <> 'case_assignments_api'
                """, Long.class)).isGreaterThanOrEqualTo(7L);
    }

    private static void insertAs(JdbcTemplate jdbc, UUID resource) {
        jdbc.update("""
                INSERT INTO audit_records (request_id, outcome, status, caller_sub, caller_roles, jurisdiction, action,
                                           resource_type, resource_id)
                VALUES ('r-1', 'REFUSED', 403, 'auditor-test', '{caseworker}', 'georgia', 'update', 'placement', ?)
                """, resource);
    }

    private static void assertRefused(Runnable statement) {
        assertThatThrownBy(statement::run)
                .isInstanceOf(DataAccessException.class)
                .satisfies(e -> assertThat(sqlState(e)).as(e.getMessage()).isEqualTo(INSUFFICIENT_PRIVILEGE));
    }

    private static String sqlState(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                return sql.getSQLState();
            }
        }
        return null;
    }
}
