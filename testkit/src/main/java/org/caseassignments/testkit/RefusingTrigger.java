package org.caseassignments.testkit;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A trigger that refuses one worker (or every worker it does not know, or every row) on {@code case_assignments} with
 * {@code RAISE} (SQLSTATE P0001): a refusal that may be one row's or the database's, which a writer retries and then
 * isolates. Dropped on close.
 */
public final class RefusingTrigger implements AutoCloseable {

    private final JdbcTemplate jdbc;

    private RefusingTrigger(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Refuses every write of {@code worker} to the projection until closed. */
    public static RefusingTrigger refusing(JdbcTemplate jdbc, String worker) {
        return raising(jdbc, "NEW.assigned_worker_sub = " + literal(worker),
                "'worker % may not be assigned', NEW.assigned_worker_sub");
    }

    /**
     * Refuses every write of a worker whose name does not start with {@code knownPrefix} until closed: a trigger that
     * refuses the workers it does not know, whatever values it is given.
     */
    public static RefusingTrigger refusingUnknownWorkers(JdbcTemplate jdbc, String knownPrefix) {
        return raising(jdbc, "NEW.assigned_worker_sub NOT LIKE " + literal(knownPrefix + "%"),
                "'unknown worker %', NEW.assigned_worker_sub");
    }

    /** Refuses every write to the projection, whatever its values, until closed: the database's state, not a row's. */
    public static RefusingTrigger refusingEveryRow(JdbcTemplate jdbc) {
        return raising(jdbc, "true", "'test trigger refuses every case, now %', NEW.case_id");
    }

    /**
     * Fails every write of {@code worker} with a serialization failure (SQLSTATE 40001), a transient error that stops
     * a job, until closed.
     */
    public static RefusingTrigger failingToSerialize(JdbcTemplate jdbc, String worker) {
        return raising(jdbc, "NEW.assigned_worker_sub = " + literal(worker),
                "'could not serialize access' USING ERRCODE = '40001'");
    }

    private static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    private static RefusingTrigger raising(JdbcTemplate jdbc, String refused, String exception) {
        jdbc.execute("""
                CREATE FUNCTION test_refuse_worker() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF %s THEN
                        RAISE EXCEPTION %s;
                    END IF;
                    RETURN NEW;
                END $$""".formatted(refused, exception));
        jdbc.execute("""
                CREATE TRIGGER test_refuse_worker BEFORE INSERT OR UPDATE ON case_assignments
                   FOR EACH ROW EXECUTE FUNCTION test_refuse_worker()""");
        return new RefusingTrigger(jdbc);
    }

    @Override
    public void close() {
        jdbc.execute("DROP TRIGGER IF EXISTS test_refuse_worker ON case_assignments");
        jdbc.execute("DROP FUNCTION IF EXISTS test_refuse_worker()");
    }
}
