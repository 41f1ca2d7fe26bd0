package org.caseassignments.backfill.snapshot;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;

/**
 * The rejects file: a CSV with the header {@code line,reason,message,record}, one row per bad
 * snapshot row. Created at the first reject. A resumed run first cuts it back to the size its
 * checkpoint recorded, so the rows of a batch that was read but never committed are not listed twice.
 */
public final class RejectsFile implements AutoCloseable {

    static final String[] HEADER = {"line", "reason", "message", "record"};

    private final Path path;
    private CSVPrinter printer;
    private long count;

    private RejectsFile(Path path) {
        this.path = path.toAbsolutePath().normalize();
    }

    /** A fresh rejects file: any file of that name from an earlier run is removed. */
    public static RejectsFile fresh(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot replace the rejects file " + path + ": " + e.getMessage(), e);
        }
        return new RejectsFile(path);
    }

    /** Continues a rejects file from the size a checkpoint recorded (0: as if fresh). */
    public static RejectsFile resumed(Path path, long bytes) {
        if (bytes <= 0 || !Files.exists(path)) {
            return fresh(path);
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.truncate(bytes);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot cut the rejects file " + path + " back to " + bytes + " bytes: "
                    + e.getMessage(), e);
        }
        RejectsFile rejects = new RejectsFile(path);
        rejects.printer = rejects.open(StandardOpenOption.APPEND);
        return rejects;
    }

    public void write(BadRow bad) {
        try {
            if (printer == null) {
                printer = open(StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
                printer.printRecord((Object[]) HEADER);
            }
            printer.printRecord(bad.line(), bad.reason(), bad.message(), bad.record());
            count++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to the rejects file " + path + ": " + e.getMessage(), e);
        }
    }

    /** Flushes what was written and returns the file's size, for a checkpoint. */
    public long flush() {
        if (printer == null) {
            return 0;
        }
        try {
            printer.flush();
            return Files.size(path);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot flush the rejects file " + path + ": " + e.getMessage(), e);
        }
    }

    /** Rejects written by this run (a resumed run does not count the ones before its checkpoint). */
    public long count() {
        return count;
    }

    public Path path() {
        return path;
    }

    private CSVPrinter open(StandardOpenOption... options) {
        try {
            BufferedWriter writer = Files.newBufferedWriter(path, StandardCharsets.UTF_8, options);
            return new CSVPrinter(writer, CSVFormat.DEFAULT);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the rejects file " + path + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        if (printer != null) {
            try {
                printer.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close the rejects file " + path + ": " + e.getMessage(), e);
            }
        }
    }
}
