package org.caseassignments.backfill.snapshot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;

/**
 * A CSV snapshot with the header {@code case_id,assigned_worker_sub,supervisor_sub,assignment_revision}
 * and optionally {@code jurisdiction} (any order, extra columns ignored); an empty field is null. A header without one of the columns,
 * or quoting the parser cannot get past, fails the source; a row with too few or too many values is a bad row.
 */
final class CsvSnapshotSource extends FileSnapshotSource {

    private static final CSVFormat FORMAT = CSVFormat.DEFAULT.builder()
            .setHeader().setSkipHeaderRecord(true).setNullString("").get();

    private final CSVParser parser;
    private final Iterator<CSVRecord> records;
    private final int[] columns = new int[RowValidation.COLUMNS.length];
    private final int jurisdictionColumn;
    private final int width;

    CsvSnapshotSource(Path file) {
        super(file, "csv");
        try {
            this.parser = FORMAT.parse(reader);
        } catch (IOException | UncheckedIOException | IllegalArgumentException e) {
            throw new SnapshotSourceException(identity().description() + ": cannot read the header: " + e.getMessage(), e);
        }
        Map<String, Integer> header = parser.getHeaderMap();
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < columns.length; i++) {
            Integer index = header.get(RowValidation.COLUMNS[i]);
            if (index == null) {
                missing.add(RowValidation.COLUMNS[i]);
            } else {
                columns[i] = index;
            }
        }
        if (!missing.isEmpty()) {
            throw new SnapshotSourceException(identity().description() + ": the header lacks " + String.join(", ", missing)
                    + "; expected " + String.join(",", RowValidation.COLUMNS));
        }
        this.jurisdictionColumn = header.getOrDefault(RowValidation.JURISDICTION, -1);
        this.width = header.size();
        this.records = parser.iterator();
    }

    @Override
    public SnapshotRecord next() {
        CSVRecord record;
        try {
            if (!records.hasNext()) {
                return null;
            }
            record = records.next();
        } catch (UncheckedIOException | IllegalStateException e) {
            String reason = e.getCause() != null ? e.getCause().getMessage() : e.getMessage();
            throw new SnapshotSourceException(identity().description() + " line " + parser.getCurrentLineNumber()
                    + " cannot be parsed as CSV: " + reason + " (the rows before it were read; fix the file and run again)", e);
        }
        recordsRead++;
        long line = parser.getCurrentLineNumber();
        if (record.size() < width) {
            return new BadRow(line, BadRow.MISSING_COLUMN, "the row has " + record.size() + " values, the header "
                    + width + " (missing " + missingColumns(record.size()) + ")", raw(record));
        }
        if (record.size() > width) {
            return new BadRow(line, BadRow.EXTRA_COLUMN, "the row has " + record.size() + " values, the header " + width,
                    raw(record));
        }
        SnapshotRecord result = RowValidation.validate(line, record.get(columns[0]), record.get(columns[1]),
                record.get(columns[2]), record.get(columns[3]),
                jurisdictionColumn < 0 ? null : record.get(jurisdictionColumn), null);
        return result instanceof BadRow bad ? bad.withRecord(raw(record)) : result;
    }

    private String missingColumns(int present) {
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < columns.length; i++) {
            if (columns[i] >= present) {
                missing.add(RowValidation.COLUMNS[i]);
            }
        }
        return String.join(", ", missing);
    }

    private static String raw(CSVRecord record) {
        return CSVFormat.DEFAULT.format(record.values());
    }
}
