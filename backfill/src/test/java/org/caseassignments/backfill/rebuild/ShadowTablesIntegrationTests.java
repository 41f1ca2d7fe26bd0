package org.caseassignments.backfill.rebuild;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.caseassignments.store.rebuild.ShadowTables;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;
import org.springframework.transaction.support.TransactionTemplate;

/** The tables of a rebuild: its lock in a database with settings of its own, its shadow beside another run's. */
class ShadowTablesIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    static final Duration HOLD = Duration.ofSeconds(1);

    @Test
    void shouldLetGoOfTheProjectionsLockWithinItsBoundWhenTheClientStopsAnsweringThoughTheDatabaseSetsALongerTransactionTimeout()
            throws Exception {
        // Given a database whose every session starts with a transaction_timeout of 60 s
        JdbcTemplate admin = DB.jdbc();
        admin.execute("ALTER DATABASE " + DB.name() + " SET transaction_timeout = '60s'");
        CountDownLatch granted = new CountDownLatch(1);
        CountDownLatch thaw = new CountDownLatch(1);
        try (SingleConnectionDataSource rebuild = new SingleConnectionDataSource(DB.jdbcUrl(), DB.username(),
                DB.password(), true)) {
            TransactionTemplate swap = new TransactionTemplate(new DataSourceTransactionManager(rebuild));
            ShadowTables tables = new ShadowTables(new JdbcTemplate(rebuild));

            // When a swap is granted the projection's lock and its client then sends nothing more
            CompletableFuture<Void> frozen = CompletableFuture.runAsync(() -> swap.executeWithoutResult(status -> {
                tables.lockLive(Duration.ofSeconds(5), HOLD);
                granted.countDown();
                try {
                    thaw.await(90, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            assertThat(granted.await(30, TimeUnit.SECONDS)).isTrue();

            // Then the server ends that session within the hold's bound, and a read waiting up to 20 s gets through
            long started = System.nanoTime();
            try (Connection reader = DriverManager.getConnection(DB.jdbcUrl(), DB.username(), DB.password());
                 Statement read = reader.createStatement()) {
                read.execute("SET lock_timeout = '20s'");
                read.executeQuery("SELECT count(*) FROM case_assignments").close();
            }
            Duration waited = Duration.ofNanos(System.nanoTime() - started);
            assertThat(waited).as("the read's wait behind the frozen swap")
                    .isLessThan(HOLD.plus(ShadowTables.FROZEN_CLIENT_MARGIN).plusSeconds(3));
            thaw.countDown();
            frozen.handle((done, failure) -> null).get(30, TimeUnit.SECONDS);
        } finally {
            thaw.countDown();
            admin.execute("ALTER DATABASE " + DB.name() + " RESET transaction_timeout");
        }
    }

    @Test
    void shouldNeitherWriteToNorDropAShadowAnotherRunPutInPlaceOfItsOwn() {
        // Given a run that created its shadow, and another run (its claim lost) that then put a shadow of its own there
        JdbcTemplate jdbc = DB.jdbc();
        jdbc.execute("DROP TABLE IF EXISTS case_assignments_rebuild");
        ShadowTables tables = new ShadowTables(jdbc);
        tables.createShadow(Duration.ofSeconds(5));
        jdbc.execute("DROP TABLE case_assignments_rebuild");
        jdbc.execute("CREATE TABLE case_assignments_rebuild (LIKE case_assignments INCLUDING ALL)");
        Long others = jdbc.queryForObject("SELECT 'case_assignments_rebuild'::regclass::oid::bigint", Long.class);
        DataSourceTransactionManager transactions = new DataSourceTransactionManager(DB.dataSource());
        ShadowTransactions writes = new ShadowTransactions(transactions, tables);

        // When the first run writes a batch into "its" shadow, and then drops it
        assertThatThrownBy(() -> writes.executeWithoutResult(status -> jdbc.update(
                "INSERT INTO case_assignments_rebuild (case_id, assignment_revision) VALUES (gen_random_uuid(), 1)")))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("not the table this run built");
        new TransactionTemplate(transactions).executeWithoutResult(status -> tables.dropShadow(Duration.ofSeconds(5)));

        // Then the other run's shadow is still there, and empty
        assertThat(jdbc.queryForObject("SELECT to_regclass('case_assignments_rebuild')::oid::bigint", Long.class))
                .isEqualTo(others);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM case_assignments_rebuild", Integer.class)).isZero();
        jdbc.execute("DROP TABLE case_assignments_rebuild");
    }
}
