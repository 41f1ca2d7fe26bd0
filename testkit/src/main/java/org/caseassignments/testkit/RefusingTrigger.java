package org.caseassignments.testkit;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A trigger that refuses one worker on {@code case_assignments} with {@code RAISE} (SQLSTATE P0001): a refusal
 * that may be one row's or the database's, which a writer retries and then isolates. Dropped on close.
 */
public final class RefusingTrigger implements AutoCloseable {

    private final JdbcTemplate jdbc;

    private RefusingTrigger(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /** Refuses every write of {@code worker} to the projection until closed. */
    public static RefusingTrigger refusing(JdbcTemplate jdbc, String worker) {
        return raising(jdbc, worker, "'worker % may not be assigned', NEW.assigned_worker_sub");
    }

    /**
     * Fails every write of {@code worker} with a serialization failure (SQLSTATE 40001), a transient error that stops
     * a job, until closed.
     */
    public static RefusingTrigger failingToSerialize(JdbcTemplate jdbc, String worker) {
        return raising(jdbc, worker, "'could not serialize access' USING ERRCODE = '40001'");
    }

    private static RefusingTrigger raising(JdbcTemplate jdbc, String worker, String exception) {
        jdbc.execute("""
                CREATE FUNCTION test_refuse_worker() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    IF NEW.assigned_worker_sub = '%s' THEN
                        RAISE EXCEPTION %s;
                    END IF;
                    RETURN NEW;
                END $$""".formatted(worker.replace("'", "''"), exception));
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
