package org.caseassignments.backfill.assignments;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;

import com.fasterxml.jackson.annotation.JsonAutoDetect;
import com.fasterxml.jackson.annotation.PropertyAccessor;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import org.caseassignments.backfill.snapshot.SourceIdentity;

/**
 * Where a run stands after its last committed batch, as a small JSON file replaced atomically
 * (written beside it, then renamed), so a crash leaves either the old or the new one.
 *
 * @param source        the snapshot it belongs to; a resume refuses another one
 * @param recordsDone   source records (good and bad) whose batches committed: a resume skips them
 * @param lastLine      the line (or row) number of the last of them
 * @param rejectsFile   the rejects file of the run
 * @param rejectsBytes  its size after the last committed batch: a resume cuts it back to this
 * @param complete      the run reached the end of the snapshot; a new run with this file starts over
 */
record Checkpoint(SourceIdentity source, long recordsDone, long lastLine, String rejectsFile, long rejectsBytes,
                  long batches, LoadCounts tally, boolean complete, String writtenAt) {

    private static final ObjectMapper JSON = new ObjectMapper()
            .setVisibility(PropertyAccessor.FIELD, JsonAutoDetect.Visibility.ANY)
            .enable(SerializationFeature.INDENT_OUTPUT);

    static Checkpoint read(Path file) {
        try {
            return JSON.readValue(file.toFile(), Checkpoint.class);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("checkpoint " + file + " does not exist");
        } catch (IOException e) {
            throw new IllegalArgumentException("checkpoint " + file + " is not a checkpoint this tool wrote: " + e.getMessage(), e);
        }
    }

    void write(Path file) {
        Path absolute = file.toAbsolutePath();
        Path temporary = absolute.resolveSibling(absolute.getFileName() + ".tmp");
        try {
            JSON.writeValue(temporary.toFile(), this);
            Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the checkpoint " + absolute + ": " + e.getMessage(), e);
        }
    }

    /**
     * Why this checkpoint cannot resume a run over {@code current}, or null when it can. The descriptions are
     * compared and printed redacted: this file may have been written before its source's URL was, or by hand (the
     * next checkpoint of the resumed run is written redacted).
     */
    String mismatch(SourceIdentity current) {
        if (!source.redactedDescription().equals(current.redactedDescription())) {
            return "it belongs to " + source.redactedDescription() + ", not " + current.redactedDescription();
        }
        if (source.size() != current.size() || source.modifiedMillis() != current.modifiedMillis()) {
            return "the file changed since (" + source.size() + " bytes, modified " + Instant.ofEpochMilli(source.modifiedMillis())
                    + "; now " + current.size() + " bytes, modified " + Instant.ofEpochMilli(current.modifiedMillis()) + ")";
        }
        return null;
    }
}
