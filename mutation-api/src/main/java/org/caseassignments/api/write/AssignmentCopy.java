package org.caseassignments.api.write;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import org.caseassignments.api.assignment.AssignmentPair;

/**
 * A case-scoped row that carries a copy of its case's assignment, and whose body shows the assignment of the
 * projection instead (decision 29), read in the same statement; a write's audit record names its revision.
 */
public interface AssignmentCopy extends Versioned {

    /** The projection's pair, which the body shows. */
    AssignmentPair assignment();

    /** The projection's revision, which the body shows. */
    long assignmentRevision();

    /** Whether the row's copy is not the projection's assignment (a rebuild's swap, a copy left ahead). */
    boolean copyDiffers();

    /**
     * Nothing while the row's copy is the projection's assignment: every write copies it, so the version covers it.
     * Otherwise the projection's revision, worker and supervisor, which change without a write of the row.
     */
    @Override
    default byte[] derivedState() {
        if (!copyDiffers()) {
            return new byte[0];
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeLong(assignmentRevision());
            writeNullable(out, assignment().assignedWorkerSub());
            writeNullable(out, assignment().supervisorSub());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** A length before the bytes, -1 for none: no two pairs encode alike. */
    private static void writeNullable(DataOutputStream out, String value) throws IOException {
        if (value == null) {
            out.writeInt(-1);
            return;
        }
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }
}
