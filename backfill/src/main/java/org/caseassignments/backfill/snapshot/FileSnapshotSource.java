package org.caseassignments.backfill.snapshot;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.OptionalDouble;

/** What the CSV and JSON Lines sources share: opening the file, counting its bytes, and its identity. */
abstract class FileSnapshotSource implements SnapshotSource {

    private final SourceIdentity identity;
    private final CountingInputStream bytes;
    final BufferedReader reader;
    long recordsRead;

    FileSnapshotSource(Path file, String format) {
        Path absolute = file.toAbsolutePath().normalize();
        try {
            this.identity = new SourceIdentity(format + " file " + absolute, Files.size(absolute),
                    Files.getLastModifiedTime(absolute).toMillis());
            this.bytes = new CountingInputStream(Files.newInputStream(absolute));
        } catch (NoSuchFileException e) {
            throw new SnapshotSourceException("snapshot file " + absolute + " does not exist");
        } catch (IOException e) {
            throw new SnapshotSourceException("cannot open snapshot file " + absolute + ": " + e.getMessage(), e);
        }
        this.reader = new BufferedReader(new InputStreamReader(bytes, StandardCharsets.UTF_8), 1 << 16);
    }

    @Override
    public long recordsRead() {
        return recordsRead;
    }

    @Override
    public OptionalDouble fractionDone() {
        return identity.size() <= 0 ? OptionalDouble.empty()
                : OptionalDouble.of(Math.min(1.0, (double) bytes.count() / identity.size()));
    }

    @Override
    public SourceIdentity identity() {
        return identity;
    }

    @Override
    public void close() {
        try {
            reader.close();
        } catch (IOException e) {
            throw new SnapshotSourceException("cannot close " + identity.description() + ": " + e.getMessage(), e);
        }
    }
}
