package org.caseassignments.api.fosterhome;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;

import org.caseassignments.api.testsupport.OpenTransaction;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The row lock a foster-home PATCH leaves on the home, taken by the API's own statements ({@link FosterHomes}) in a
 * transaction held open (ADR-060 D7, decision 22): a rename, a capacity change, a licence-status change and a
 * licence-number change all hold {@code FOR NO KEY UPDATE}, which a placement insert's foreign-key check
 * ({@code FOR KEY SHARE}) passes. The licence number's uniqueness is an index on an expression (decision 41), which
 * no foreign key can use, so changing it takes no key-strength lock either.
 */
class FosterHomeUpdateLocksIntegrationTests {

    private static final TestDatabase DB = TestDatabase.migrated();

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldNotMakeAPlacementInsertWaitForAHeldRename() {
        assertInsertPassesA(home -> change(Optional.of("Renamed House"), null, null, null));
    }

    @Test
    void shouldNotMakeAPlacementInsertWaitForAHeldCapacityChange() {
        assertInsertPassesA(home -> change(null, Optional.of(5), null, null));
    }

    @Test
    void shouldNotMakeAPlacementInsertWaitForAHeldLicenceStatusChange() {
        assertInsertPassesA(home -> change(null, null, null, Optional.of(LicenseStatus.SUSPENDED)));
    }

    @Test
    void shouldNotMakeAPlacementInsertWaitForAHeldLicenceNumberChange() {
        assertInsertPassesA(home -> change(null, null, Optional.of("GA-RENUMBERED"), null));
    }

    private void assertInsertPassesA(Function<UUID, UpdateFosterHomeRequest> request) {
        UUID home = Rows.fosterHome().insert(jdbc);
        try (OpenTransaction patch = heldPatch(home, request.apply(home))) {
            // a lock wait fails the insert instead of hanging the test
            try (OpenTransaction insert = OpenTransaction.begin(DB.dataSource(), inserter -> {
                inserter.execute("SET LOCAL lock_timeout = '5s'");
                insertPlacement(inserter, home);
            })) {
                insert.awaitWork().commit();
            }
            patch.commit();
        }
        assertThat(placementsIn(home)).isEqualTo(1);
    }

    /** The PATCH's locked re-read and write, as {@link FosterHomeUpdate} runs them, left uncommitted. */
    private static OpenTransaction heldPatch(UUID home, UpdateFosterHomeRequest change) {
        return OpenTransaction.begin(DB.dataSource(), holder -> {
            FosterHomes homes = new FosterHomes(holder);
            FosterHomeUpdate update = new FosterHomeUpdate(homes, home, change);
            update.write(update.lockedRead().orElseThrow());
        }).awaitWork();
    }

    private static UpdateFosterHomeRequest change(Optional<String> name, Optional<Integer> capacity,
                                                  Optional<String> licenseNumber, Optional<LicenseStatus> status) {
        return new UpdateFosterHomeRequest(name, capacity, null, licenseNumber, status);
    }

    private static void insertPlacement(JdbcTemplate inserter, UUID home) {
        Rows.placement(UUID.randomUUID()).in(home).insert(inserter);
    }

    private int placementsIn(UUID home) {
        return jdbc.queryForObject("SELECT count(*) FROM placements WHERE foster_home_id = ?", Integer.class, home);
    }
}
