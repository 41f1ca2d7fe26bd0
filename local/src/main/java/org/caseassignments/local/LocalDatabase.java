package org.caseassignments.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/** Embedded PostgreSQL binaries with their data in the local data folder, so data survives restarts. */
final class LocalDatabase implements AutoCloseable {

    static final String DATABASE = "case_assignments";

    private final EmbeddedPostgres postgres;
    private final int port;

    private LocalDatabase(EmbeddedPostgres postgres, int port) {
        this.postgres = postgres;
        this.port = port;
    }

    static LocalDatabase start(Path dataDir, int port) throws IOException, SQLException {
        Path dir = dataDir.resolve("postgres");
        Files.createDirectories(dir);
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setDataDirectory(dir)
                .setCleanDataDirectory(false)
                .setPort(port)
                .start();
        try (Connection connection = postgres.getPostgresDatabase().getConnection()) {
            var exists = connection.createStatement()
                    .executeQuery("SELECT 1 FROM pg_database WHERE datname = '" + DATABASE + "'");
            if (!exists.next()) {
                connection.createStatement().execute("CREATE DATABASE " + DATABASE);
            }
        }
        return new LocalDatabase(postgres, port);
    }

    /**
     * What the banner says of durability when the embedded server trades it for speed (its defaults turn
     * {@code fsync} off), or null when it does not. The services still commit with {@code synchronous_commit = on}.
     */
    String durabilityWarning() throws SQLException {
        try (Connection connection = postgres.getPostgresDatabase().getConnection();
             var rs = connection.createStatement().executeQuery("SELECT current_setting('fsync')")) {
            rs.next();
            return "on".equals(rs.getString(1)) ? null
                    : "fsync is off in this local PostgreSQL (fast, for local use only): a crash of this machine can "
                      + "lose rows it acknowledged, while the projector's offsets stay past their events";
        }
    }

    String jdbcUrl() {
        return "jdbc:postgresql://localhost:" + port + "/" + DATABASE;
    }

    String username() {
        return "postgres";
    }

    String password() {
        return "postgres";
    }

    @Override
    public void close() throws IOException {
        postgres.close();
    }
}
