package org.caseassignments.backfill.snapshot;

import java.io.IOException;
import java.nio.file.Path;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A JSON Lines snapshot: one object per line with the keys {@code case_id}, {@code assigned_worker_sub},
 * {@code supervisor_sub} (a string or null) and {@code assignment_revision}, and optionally
 * {@code jurisdiction} (a string or null); other keys are ignored
 * and blank lines are skipped. A line that is not such an object is a bad row.
 */
final class JsonLinesSnapshotSource extends FileSnapshotSource {

    private static final ObjectMapper JSON = new ObjectMapper();

    private long line;

    JsonLinesSnapshotSource(Path file) {
        super(file, "jsonl");
    }

    @Override
    public SnapshotRecord next() {
        String text;
        try {
            do {
                text = reader.readLine();
                line++;
            } while (text != null && text.isBlank());
        } catch (IOException e) {
            throw new SnapshotSourceException(identity().description() + " at line " + line + ": " + e.getMessage(), e);
        }
        if (text == null) {
            return null;
        }
        recordsRead++;
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JsonProcessingException e) {
            return new BadRow(line, BadRow.INVALID_JSON, "not JSON: " + e.getOriginalMessage(), text);
        }
        if (!node.isObject()) {
            return new BadRow(line, BadRow.INVALID_JSON, "not a JSON object", text);
        }
        String[] values = new String[RowValidation.COLUMNS.length];
        for (int i = 0; i < values.length; i++) {
            String column = RowValidation.COLUMNS[i];
            JsonNode value = node.get(column);
            if (value == null) {
                return new BadRow(line, BadRow.MISSING_COLUMN, "missing key " + column, text);
            }
            if (value.isNull()) {
                values[i] = null;
            } else if (value.isTextual() || (value.isIntegralNumber() && column.equals(RowValidation.REVISION))) {
                values[i] = value.asText();
            } else {
                return new BadRow(line, column.equals(RowValidation.REVISION) ? BadRow.INVALID_REVISION : BadRow.INVALID_VALUE,
                        column + " must be " + (column.equals(RowValidation.REVISION) ? "an integer" : "a string or null")
                                + ", was " + value, text);
            }
        }
        JsonNode jurisdiction = node.get(RowValidation.JURISDICTION);
        if (jurisdiction != null && !jurisdiction.isNull() && !jurisdiction.isTextual()) {
            return new BadRow(line, BadRow.INVALID_JURISDICTION, "jurisdiction must be a string or null, was " + jurisdiction,
                    text);
        }
        SnapshotRecord result = RowValidation.validate(line, values[0], values[1], values[2], values[3],
                jurisdiction == null || jurisdiction.isNull() ? null : jurisdiction.asText(), null);
        return result instanceof BadRow bad ? bad.withRecord(text) : result;
    }
}
