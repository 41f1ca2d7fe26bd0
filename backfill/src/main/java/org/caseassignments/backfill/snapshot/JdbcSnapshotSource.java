package org.caseassignments.backfill.snapshot;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

import org.apache.commons.csv.CSVFormat;

/**
 * A query against the case service's own database, on a read-only connection in one read-only
 * transaction (one consistent snapshot), streamed with a fetch size rather than loaded whole. The
 * query must return the four columns by name (and may return {@code jurisdiction}) and should
 * {@code ORDER BY} a unique key, so that a
 * resumed run skips exactly the rows the interrupted one did.
 */
final class JdbcSnapshotSource implements SnapshotSource {

    private final SourceIdentity identity;
    private final Connection connection;
    private final ResultSet rows;
    private final int[] columns = new int[RowValidation.COLUMNS.length];
    private int jurisdictionColumn = -1;
    private long recordsRead;

    JdbcSnapshotSource(String url, String user, String password, String query, int fetchSize) {
        this.identity = SourceIdentity.ofQuery(url, query);
        try {
            connection = DriverManager.getConnection(url, user, password);
        } catch (SQLException e) {
            throw new SnapshotSourceException("cannot connect to " + SourceIdentity.redacted(url) + " as " + user + ": " + e.getMessage(), e);
        }
        try {
            connection.setReadOnly(true);
            connection.setAutoCommit(false);
            PreparedStatement statement = connection.prepareStatement(query, ResultSet.TYPE_FORWARD_ONLY,
                    ResultSet.CONCUR_READ_ONLY);
            statement.setFetchSize(fetchSize);
            rows = statement.executeQuery();
            locateColumns(rows.getMetaData());
        } catch (SQLException e) {
            close();
            throw new SnapshotSourceException("the snapshot query failed: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void locateColumns(ResultSetMetaData metaData) throws SQLException {
        Map<String, Integer> byLabel = new HashMap<>();
        for (int i = 1; i <= metaData.getColumnCount(); i++) {
            byLabel.put(metaData.getColumnLabel(i).toLowerCase(Locale.ROOT), i);
        }
        jurisdictionColumn = byLabel.getOrDefault(RowValidation.JURISDICTION, -1);
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < columns.length; i++) {
            Integer index = byLabel.get(RowValidation.COLUMNS[i]);
            if (index == null) {
                missing.add(RowValidation.COLUMNS[i]);
            } else {
                columns[i] = index;
            }
        }
        if (!missing.isEmpty()) {
            throw new SnapshotSourceException("the snapshot query returns no column " + String.join(", ", missing)
                    + "; it must return " + String.join(", ", RowValidation.COLUMNS) + " (alias them with AS)");
        }
    }

    @Override
    public SnapshotRecord next() {
        String[] values = new String[columns.length + 1];
        try {
            if (!rows.next()) {
                return null;
            }
            for (int i = 0; i < columns.length; i++) {
                values[i] = rows.getString(columns[i]);
            }
            values[columns.length] = jurisdictionColumn < 0 ? null : rows.getString(jurisdictionColumn);
        } catch (SQLException e) {
            throw new SnapshotSourceException("the snapshot query failed at row " + (recordsRead + 1) + ": " + e.getMessage(), e);
        }
        recordsRead++;
        SnapshotRecord result = RowValidation.validate(recordsRead, values[0], values[1], values[2], values[3], values[4],
                null);
        return result instanceof BadRow bad ? bad.withRecord(CSVFormat.DEFAULT.format((Object[]) values)) : result;
    }

    @Override
    public long recordsRead() {
        return recordsRead;
    }

    @Override
    public OptionalDouble fractionDone() {
        return OptionalDouble.empty();
    }

    @Override
    public SourceIdentity identity() {
        return identity;
    }

    @Override
    public void close() {
        try {
            connection.rollback();
            connection.close();
        } catch (SQLException ignored) {
            // read-only: nothing to lose; the server ends the transaction with the connection
        }
    }
}
