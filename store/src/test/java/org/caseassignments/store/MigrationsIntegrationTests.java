package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;

import org.caseassignments.testkit.Rows;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;
import org.flywaydb.core.api.MigrationVersion;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.JdbcTemplate;

class MigrationsIntegrationTests {

    @Test
    void shouldApplyToAnEmptyDatabaseAndChangeNothingOnASecondRun() {
        TestDatabase db = TestDatabase.empty();

        int first = db.migrate();
        String schemaBefore = schemaFingerprint(db.jdbc());
        int second = db.migrate();

        assertThat(first).isPositive();
        assertThat(second).isZero();
        assertThat(schemaFingerprint(db.jdbc())).isEqualTo(schemaBefore);
        assertThat(db.jdbc().queryForList(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1", String.class))
                .contains("case_assignments", "foster_homes", "kinship_options", "placements");
    }

    @Test
    void shouldRefuseValuesOutsideTheEnumerationsAndRevisionsBelowThePlaceholder() {
        JdbcTemplate jdbc = TestDatabase.migrated().jdbc();

        assertThatThrownBy(() -> Rows.assignment(UUID.randomUUID()).worker(null).supervisor(null).revision(-2).insert(jdbc))
                .isInstanceOf(DataIntegrityViolationException.class);
        assertThatThrownBy(() -> Rows.assignment(UUID.randomUUID()).worker("w").revision(-1).insert(jdbc))
                .as("a placeholder carries no assignment")
                .isInstanceOf(DataIntegrityViolationException.class);
        assertThatThrownBy(() -> Rows.fosterHome().licenseStatus("LAPSED").insert(jdbc))
                .isInstanceOf(DataIntegrityViolationException.class);
        assertThatThrownBy(() -> Rows.fosterHome().capacity(-1).insert(jdbc))
                .isInstanceOf(DataIntegrityViolationException.class);
        UUID placement = Rows.placement(UUID.randomUUID()).insert(jdbc);
        assertThatThrownBy(() -> jdbc.update("UPDATE placements SET status = 'DONE' WHERE id = ?", placement))
                .isInstanceOf(DataIntegrityViolationException.class);
    }

    @Test
    void shouldRefuseADuplicateLicenseNumber() {
        JdbcTemplate jdbc = TestDatabase.migrated().jdbc();
        Rows.fosterHome().licenseNumber("GA-1").insert(jdbc);

        assertThatThrownBy(() -> Rows.fosterHome().licenseNumber("GA-1").insert(jdbc))
                .isInstanceOf(DataIntegrityViolationException.class)
                .hasMessageContaining("foster_homes_license_number_unique");
    }

    @Test
    void shouldKeepLicenseNumbersUniquePerJurisdictionOnlyAndAmongHomesOfNoKnownJurisdiction() {
        JdbcTemplate jdbc = TestDatabase.migrated().jdbc();
        Rows.fosterHome().licenseNumber("LIC-7").jurisdiction("georgia").insert(jdbc);
        Rows.fosterHome().licenseNumber("LIC-7").jurisdiction(null).insert(jdbc);

        Rows.fosterHome().licenseNumber("LIC-7").jurisdiction("texas").insert(jdbc);

        assertThatThrownBy(() -> Rows.fosterHome().licenseNumber("LIC-7").jurisdiction("texas").insert(jdbc))
                .isInstanceOf(DataIntegrityViolationException.class);
        assertThatThrownBy(() -> Rows.fosterHome().licenseNumber("LIC-7").jurisdiction(null).insert(jdbc))
                .as("homes of no known jurisdiction stay unique among themselves")
                .isInstanceOf(DataIntegrityViolationException.class);
    }

    @Test
    void shouldKeepLicenseNumbersUniqueIgnoringCaseAndSurroundingSpacesAndTheTextAsWritten() {
        JdbcTemplate jdbc = TestDatabase.migrated().jdbc();
        UUID home = Rows.fosterHome().licenseNumber(" Ga-9 ").jurisdiction("georgia").insert(jdbc);

        assertThatThrownBy(() -> Rows.fosterHome().licenseNumber("GA-9").jurisdiction("georgia").insert(jdbc))
                .isInstanceOf(DataIntegrityViolationException.class);
        Rows.fosterHome().licenseNumber("GA-9").jurisdiction("texas").insert(jdbc);
        assertThat(jdbc.queryForObject("SELECT license_number FROM foster_homes WHERE id = ?", String.class, home))
                .isEqualTo(" Ga-9 ");
    }

    @Test
    void shouldStopNamingEveryHomeWhoseLicenseNumberCollidesOnceNormalisedAndChangeNothing() {
        TestDatabase db = TestDatabase.empty();
        Flyway before = Flyway.configure().dataSource(db.jdbcUrl(), db.username(), db.password())
                .locations("classpath:db/migration").target(MigrationVersion.fromVersion("11")).load();
        before.migrate();
        JdbcTemplate jdbc = db.jdbc();
        UUID upper = Rows.fosterHome().licenseNumber("GA-77").jurisdiction("georgia").insert(jdbc);
        UUID lower = Rows.fosterHome().licenseNumber("ga-77 ").jurisdiction("georgia").insert(jdbc);
        UUID texas = Rows.fosterHome().licenseNumber("GA-77").jurisdiction("texas").insert(jdbc);
        UUID alone = Rows.fosterHome().licenseNumber("GA-78").jurisdiction("georgia").insert(jdbc);

        assertThatThrownBy(db::migrate).isInstanceOf(FlywayException.class)
                .hasMessageContaining("jurisdiction georgia, licence GA-77: homes")
                .hasMessageContaining(upper + " ('GA-77')").hasMessageContaining(lower + " ('ga-77 ')")
                .satisfies(failure -> assertThat(failure.getMessage()).doesNotContain(texas.toString(), alone.toString()));

        assertThat(jdbc.queryForList("SELECT license_number FROM foster_homes ORDER BY license_number", String.class))
                .as("nothing renamed, merged or deleted").containsExactly("GA-77", "GA-77", "GA-78", "ga-77 ");
        jdbc.update("UPDATE foster_homes SET license_number = 'GA-77-B' WHERE id = ?", lower);
        assertThat(db.migrate()).as("once the operator has renamed one, the rest applies").isPositive();
    }

    @Test
    void shouldGiveEveryRecordedIdempotencyKeyTheJurisdictionOfTheRecordItCreated() {
        TestDatabase db = TestDatabase.empty();
        Flyway.configure().dataSource(db.jdbcUrl(), db.username(), db.password()).locations("classpath:db/migration")
                .target(MigrationVersion.fromVersion("11")).load().migrate();
        JdbcTemplate jdbc = db.jdbc();
        UUID home = Rows.fosterHome().jurisdiction("texas").insert(jdbc);
        UUID caseId = Rows.assignment(UUID.randomUUID()).worker("w-1").supervisor("s-1").revision(1)
                .jurisdiction("georgia").insert(jdbc);
        UUID placement = Rows.placement(caseId).insert(jdbc);
        String insert = "INSERT INTO idempotency_keys (caller_sub, endpoint, idempotency_key, fingerprint, status, location) "
                + "VALUES ('a-1', 'POST', ?, '\\x00', 201, ?)";
        jdbc.update(insert, "home", "/foster-homes/" + home);
        jdbc.update(insert, "placement", "/placements/" + placement);
        jdbc.update(insert, "gone", "/kinship-options/" + UUID.randomUUID());

        db.migrate();

        assertThat(jdbc.queryForList("SELECT idempotency_key || '=' || caller_jurisdiction FROM idempotency_keys "
                + "ORDER BY idempotency_key", String.class)).containsExactly("gone=", "home=texas", "placement=georgia");
    }

    private static String schemaFingerprint(JdbcTemplate jdbc) {
        List<String> columns = jdbc.queryForList("""
                SELECT table_name || '.' || column_name || ':' || data_type || ':' || is_nullable
                  FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1
                """, String.class);
        List<String> constraints = jdbc.queryForList(
                "SELECT conname FROM pg_constraint WHERE connamespace = 'public'::regnamespace ORDER BY 1", String.class);
        return columns + "|" + constraints;
    }
}
