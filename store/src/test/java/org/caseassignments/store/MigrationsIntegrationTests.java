package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.UUID;

import org.caseassignments.testkit.Rows;
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
