package org.caseassignments.backfill.snapshot;

import java.nio.file.Path;
import java.util.Locale;

import org.caseassignments.backfill.OptionChecks;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** Where a snapshot comes from: a file, or a query on a read-only JDBC connection. Exactly one. */
public final class SnapshotOptions {

    @ArgGroup(exclusive = false, heading = "Snapshot file:%n")
    FileOptions file;

    @ArgGroup(exclusive = false, heading = "Snapshot query (read-only JDBC connection to the case service's database):%n")
    JdbcOptions jdbc;

    /** CSV or JSON Lines. */
    public enum Format { CSV, JSONL }

    static final class FileOptions {
        @Option(names = "--file", required = true, paramLabel = "FILE",
                description = "CSV with the header case_id,assigned_worker_sub,supervisor_sub,assignment_revision "
                        + "(empty = null), or JSON Lines with those keys.")
        Path path;

        @Option(names = "--format", paramLabel = "csv|jsonl", converter = FormatConverter.class,
                description = "File format (default: jsonl for *.jsonl and *.ndjson, csv otherwise).")
        Format format;
    }

    static final class JdbcOptions {
        @Option(names = "--jdbc-url", required = true, paramLabel = "URL", description = "JDBC URL of the snapshot database.")
        String url;

        @Option(names = "--jdbc-user", paramLabel = "USER", defaultValue = "${env:SNAPSHOT_JDBC_USER}",
                description = "User (default: $SNAPSHOT_JDBC_USER).")
        String user;

        @Option(names = "--jdbc-password", paramLabel = "PASSWORD", defaultValue = "${env:SNAPSHOT_JDBC_PASSWORD}",
                description = "Password (default: $SNAPSHOT_JDBC_PASSWORD; prefer the variable, a command line is visible to ps).")
        String password;

        @Option(names = "--query", required = true, paramLabel = "SQL",
                description = "Query returning case_id, assigned_worker_sub, supervisor_sub, assignment_revision; "
                        + "ORDER BY a unique key so a resumed run skips exactly the rows already done.")
        String query;

        @Option(names = "--fetch-size", paramLabel = "ROWS", defaultValue = "10000",
                description = "Rows fetched per round trip while streaming (default: ${DEFAULT-VALUE}).")
        int fetchSize;
    }

    /** Bad usage (64) when a value means nothing: a query fetched zero rows at a time. */
    public void check(CommandSpec spec) {
        if (jdbc != null) {
            OptionChecks.atLeast(spec, "--fetch-size", jdbc.fetchSize, 1);
        }
    }

    /** Opens the source; a source that cannot be opened is a {@link SnapshotSourceException}. */
    public SnapshotSource open() {
        if (file != null) {
            Format format = file.format != null ? file.format : formatOf(file.path);
            return format == Format.JSONL ? new JsonLinesSnapshotSource(file.path) : new CsvSnapshotSource(file.path);
        }
        return new JdbcSnapshotSource(jdbc.url, jdbc.user, jdbc.password, jdbc.query, jdbc.fetchSize);
    }

    /** A snapshot file, its format from its name as with {@code --file}. */
    public static SnapshotSource openFile(Path path) {
        return formatOf(path) == Format.JSONL ? new JsonLinesSnapshotSource(path) : new CsvSnapshotSource(path);
    }

    private static Format formatOf(Path path) {
        String name = path.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".jsonl") || name.endsWith(".ndjson") ? Format.JSONL : Format.CSV;
    }

    static final class FormatConverter implements picocli.CommandLine.ITypeConverter<Format> {
        @Override
        public Format convert(String value) {
            return Format.valueOf(value.trim().toUpperCase(Locale.ROOT));
        }
    }
}
