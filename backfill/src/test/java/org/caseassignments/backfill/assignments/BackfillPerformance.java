package org.caseassignments.backfill.assignments;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Reader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;

import org.caseassignments.backfill.BackfillApplication;
import org.caseassignments.testkit.TestDatabase;
import org.postgresql.PGConnection;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine;

/**
 * Opt-in benchmark (not a test): backfills a snapshot of {@code rows} rows over an existing projection of
 * the same cases and compares its rate with the ceiling of COPY into a staging table plus one guarded
 * {@code INSERT … SELECT … ON CONFLICT}. Each measurement starts from the same seeded projection.
 *
 * <pre>{@code
 * ./mvnw -B -ntp -q -pl backfill -am test-compile
 * java -cp "$(cat backfill/target/test-classpath.txt):backfill/target/classes:backfill/target/test-classes" \
 *     org.caseassignments.backfill.assignments.BackfillPerformance 1000000 20000 2    # rows, --batch-size, --parallelism
 * }</pre>
 */
public final class BackfillPerformance {

    /**
     * The ceiling's statement: the snapshot guard written out once more, here only, as the measuring stick the
     * issue defines. The product writes through {@code AssignmentWriter} alone.
     */
    private static final String CEILING_UPSERT = """
            INSERT INTO case_assignments AS ca (case_id, assigned_worker_sub, supervisor_sub, assignment_revision, updated_at)
            SELECT case_id, assigned_worker_sub, supervisor_sub, assignment_revision, now() FROM staging ORDER BY case_id
            ON CONFLICT (case_id) DO UPDATE
               SET assigned_worker_sub = EXCLUDED.assigned_worker_sub, supervisor_sub = EXCLUDED.supervisor_sub,
                   assignment_revision = EXCLUDED.assignment_revision, updated_at = now()
             WHERE ca.assignment_revision < EXCLUDED.assignment_revision
                OR (ca.assignment_revision = EXCLUDED.assignment_revision
                    AND (ca.assigned_worker_sub, ca.supervisor_sub) IS DISTINCT FROM (EXCLUDED.assigned_worker_sub, EXCLUDED.supervisor_sub))
            """;

    private BackfillPerformance() {
    }

    public static void main(String[] args) throws Exception {
        int rows = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
        int batchSize = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        int parallelism = args.length > 2 ? Integer.parseInt(args[2]) : 2;
        TestDatabase db = TestDatabase.migrated();
        if (System.getenv("BENCH_JIT_OFF") != null) { db.jdbc().execute("ALTER DATABASE " + db.name() + " SET jit = off"); }
        Path dir = Files.createTempDirectory("backfill-bench");
        Path seed = dir.resolve("seed.csv");
        Path snapshot = dir.resolve("snapshot.csv");
        generate(rows, seed, snapshot);
        System.out.printf(Locale.ROOT, "%,d rows, snapshot %,d bytes, batch size %,d, parallelism %d, PostgreSQL %s%n", rows,
                Files.size(snapshot), batchSize, parallelism, db.jdbc().queryForObject("SHOW server_version", String.class));

        // application.yml reads these, as it does from the environment in production
        System.setProperty("DATABASE_URL", db.jdbcUrl());
        System.setProperty("DATABASE_USERNAME", db.username());
        System.setProperty("DATABASE_PASSWORD", db.password());
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(BackfillApplication.class)
                .web(WebApplicationType.NONE).run("status", "--help")) {
            CommandLine cli = context.getBean(CommandLine.class);
            for (int round = 1; round <= 2; round++) {
                reseed(db, seed);
                double ceiling = rows / ceilingSeconds(db, snapshot);
                reseed(db, seed);
                double backfill = rows / backfillSeconds(cli, snapshot, batchSize, parallelism, dir);
                System.out.printf(Locale.ROOT, "round %d: ceiling (COPY + one guarded INSERT…SELECT) %,.0f rows/s; "
                        + "backfill assignments %,.0f rows/s = %.0f%% of the ceiling%n", round, ceiling, backfill,
                        100 * backfill / ceiling);
            }
        }
        System.exit(0);
    }

    /** The seeded projection: revision 2 or 4 with pair (w-seed, s). The snapshot: a mix over the same cases. */
    private static void generate(int rows, Path seed, Path snapshot) throws IOException {
        Random random = new Random(42);
        try (BufferedWriter seedOut = Files.newBufferedWriter(seed, StandardCharsets.UTF_8);
             BufferedWriter snapOut = Files.newBufferedWriter(snapshot, StandardCharsets.UTF_8)) {
            snapOut.write("case_id,assigned_worker_sub,supervisor_sub,assignment_revision\n");
            for (int i = 0; i < rows; i++) {
                UUID caseId = new UUID(random.nextLong(), random.nextLong());
                int stored = random.nextBoolean() ? 2 : 4;
                seedOut.write(caseId + ",w-seed,s," + stored + "\n");
                int kind = random.nextInt(5);
                int revision = switch (kind) {
                    case 0, 1 -> stored + 1;   // advances
                    case 2, 3 -> stored;       // equal: half converge, half unchanged
                    default -> stored - 1;     // older
                };
                String worker = kind == 2 ? "w-snap" : "w-seed";
                snapOut.write(caseId + "," + worker + ",s," + revision + "\n");
            }
        }
    }

    private static void reseed(TestDatabase db, Path seed) throws SQLException, IOException {
        try (Connection connection = db.dataSource().getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("TRUNCATE case_assignments, placements, kinship_options");
            try (Reader reader = Files.newBufferedReader(seed)) {
                connection.unwrap(PGConnection.class).getCopyAPI().copyIn("""
                        COPY case_assignments (case_id, assigned_worker_sub, supervisor_sub, assignment_revision)
                        FROM STDIN WITH (FORMAT csv)""", reader);
            }
            statement.execute("VACUUM ANALYZE case_assignments");
            statement.execute("CHECKPOINT");
        }
    }

    private static double ceilingSeconds(TestDatabase db, Path snapshot) throws SQLException, IOException {
        long start = System.nanoTime();
        try (Connection connection = db.dataSource().getConnection(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            statement.execute("""
                    CREATE TEMP TABLE staging (case_id uuid, assigned_worker_sub text, supervisor_sub text,
                                               assignment_revision bigint) ON COMMIT DROP""");
            try (Reader reader = Files.newBufferedReader(snapshot)) {
                connection.unwrap(PGConnection.class).getCopyAPI().copyIn(
                        "COPY staging FROM STDIN WITH (FORMAT csv, HEADER true)", reader);
            }
            statement.executeUpdate(CEILING_UPSERT);
            connection.commit();
            connection.setAutoCommit(true);
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private static double backfillSeconds(CommandLine cli, Path snapshot, int batchSize, int parallelism, Path dir) {
        StringWriter out = new StringWriter();
        cli.setOut(new PrintWriter(out, true));
        cli.setErr(new PrintWriter(System.err, true));
        long start = System.nanoTime();
        int exit = cli.execute("assignments", "--file", snapshot.toString(), "--batch-size", Integer.toString(batchSize),
                "--parallelism", Integer.toString(parallelism),
                "--progress", "none", "--rejects", dir.resolve("rejects.csv").toString());
        double seconds = (System.nanoTime() - start) / 1e9;
        if (exit != 0) {
            throw new IllegalStateException("backfill exited " + exit + ":\n" + out);
        }
        System.out.print(out);
        return seconds;
    }
}
