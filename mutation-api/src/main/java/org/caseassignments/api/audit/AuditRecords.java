package org.caseassignments.api.audit;

import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import org.caseassignments.store.jdbc.OneRoundTrip;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;

/** The audit table's statements. */
@Repository
class AuditRecords {

    /**
     * A write's record takes the transaction's time ({@code now()}); a refusal's, the time it was refused. A written
     * record that names a foster home counts the home's ACTIVE placements here, after the write, in its transaction
     * (under the home's lock when the write activated a placement there): the occupancy the write left, with no
     * round trip of its own.
     */
    static final String INSERT = """
            INSERT INTO audit_records (recorded_at, request_id, outcome, status, problem_code, caller_sub, caller_roles,
                                       jurisdiction, action, resource_type, resource_id, case_id, ruleset_jurisdiction,
                                       ruleset_version, rule_id, after_rule_id, assignment_revision, assigned_worker_sub,
                                       supervisor_sub, row_version_before, row_version_after, foster_home_id,
                                       more_refusals, assignment_trace_id, home_occupancy)
            VALUES (COALESCE(?, now()), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,
                    CASE WHEN ? THEN (SELECT count(*) FROM placements WHERE foster_home_id = ? AND status = 'ACTIVE') END)""";

    private static final String ENSURE_PARTITIONS = "SELECT audit_records_ensure_partitions(?)";

    /**
     * Whole months after the current one (UTC) that have a partition, counted from the next month up to the
     * first one without: 0 means a write fails from the first of next month. Names as the function makes them.
     */
    private static final String MONTHS_AHEAD = """
            SELECT coalesce(min(m) - 1, 120)
              FROM generate_series(1, 121) AS m
             WHERE to_regclass(quote_ident('audit_records_' || to_char(
                       date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => m), '"y"YYYY"m"MM'))) IS NULL""";

    private static final String SELECT = """
            SELECT id, recorded_at, request_id, outcome, status, problem_code, caller_sub, caller_roles, jurisdiction,
                   action, resource_type, resource_id, case_id, ruleset_jurisdiction, ruleset_version, rule_id,
                   after_rule_id, assignment_revision, assigned_worker_sub, supervisor_sub, row_version_before,
                   row_version_after, foster_home_id, home_occupancy, more_refusals, assignment_trace_id
              FROM audit_records
             WHERE jurisdiction = ?""";
    private static final String BY_RESOURCE = " AND resource_id = ?";
    private static final String BY_CALLER = " AND caller_sub = ?";
    private static final String FROM = " AND recorded_at >= ?";
    private static final String UNTIL = " AND recorded_at < ?";
    private static final String AFTER_CURSOR = " AND (recorded_at, id) < (?, ?)";
    private static final String NEWEST_FIRST = " ORDER BY recorded_at DESC, id DESC LIMIT ?";

    private final JdbcTemplate jdbc;

    AuditRecords(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * Inserts on the connection of the caller's transaction. A refused insert is the service's fault, never
     * the caller's (no partition for the month, or a record the table's checks refuse): it fails the write
     * as an internal error rather than as a conflict the caller could retry away.
     */
    void insert(AuditEntry entry, OneRoundTrip.PairedStatement along) {
        try {
            if (along == null) {
                jdbc.update(connection -> {
                    PreparedStatement statement = connection.prepareStatement(INSERT);
                    bind(statement, entry);
                    return statement;
                });
            } else {
                OneRoundTrip.update(jdbc, INSERT, statement -> bind(statement, entry), along);
            }
        } catch (DataIntegrityViolationException e) {
            throw new IllegalStateException("The audit record of this write could not be inserted, so the write was "
                    + "not made; is there a partition of audit_records for this month? (docs/audit.md)", e);
        }
    }

    int ensurePartitions(int monthsAhead) {
        Integer created = jdbc.queryForObject(ENSURE_PARTITIONS, Integer.class, monthsAhead);
        return created == null ? 0 : created;
    }

    int monthsAhead() {
        Integer months = jdbc.queryForObject(MONTHS_AHEAD, Integer.class);
        return months == null ? 0 : months;
    }

    /** One page of a jurisdiction's records, newest first, strictly after {@code cursor} when given. */
    List<AuditRecordResponse> page(AuditQuery query, int limit) {
        StringBuilder sql = new StringBuilder(SELECT);
        List<Object> args = new ArrayList<>(List.of(query.jurisdiction()));
        if (query.resourceId() != null) {
            sql.append(BY_RESOURCE);
            args.add(query.resourceId());
        }
        if (query.callerSub() != null) {
            sql.append(BY_CALLER);
            args.add(query.callerSub());
        }
        if (query.from() != null) {
            sql.append(FROM);
            args.add(utc(query.from()));
        }
        if (query.until() != null) {
            sql.append(UNTIL);
            args.add(utc(query.until()));
        }
        if (query.cursor() != null) {
            sql.append(AFTER_CURSOR);
            args.add(utc(query.cursor().recordedAt()));
            args.add(query.cursor().id());
        }
        sql.append(NEWEST_FIRST);
        args.add(limit);
        return jdbc.query(sql.toString(), AuditRecords::map, args.toArray());
    }

    /**
     * Binds every column of {@link #INSERT}; shared by the in-transaction insert and the refusal batches.
     * Returns the last parameter index it bound.
     */
    static int bind(PreparedStatement statement, AuditEntry entry) throws SQLException {
        Connection connection = statement.getConnection();
        int i = 0;
        statement.setObject(++i, utc(entry.recordedAt()), Types.TIMESTAMP_WITH_TIMEZONE);
        statement.setString(++i, entry.requestId());
        statement.setString(++i, entry.outcome().name());
        statement.setInt(++i, entry.outcome().status());
        statement.setString(++i, entry.outcome().problemCode());
        statement.setString(++i, entry.caller().sub());
        statement.setArray(++i, connection.createArrayOf("text", entry.caller().roles().toArray()));
        statement.setString(++i, entry.caller().jurisdiction());
        statement.setString(++i, entry.action().wireName());
        statement.setString(++i, entry.subject().resourceType());
        statement.setObject(++i, entry.subject().resourceId(), Types.OTHER);
        statement.setObject(++i, entry.subject().caseId(), Types.OTHER);
        statement.setString(++i, entry.authority().rulesetJurisdiction());
        statement.setString(++i, entry.authority().rulesetVersion());
        statement.setString(++i, entry.authority().ruleId());
        statement.setString(++i, entry.authority().afterRuleId());
        statement.setObject(++i, entry.assignment().revision(), Types.BIGINT);
        statement.setString(++i, entry.assignment().assignedWorkerSub());
        statement.setString(++i, entry.assignment().supervisorSub());
        statement.setObject(++i, entry.rowVersions().before(), Types.BIGINT);
        statement.setObject(++i, entry.rowVersions().after(), Types.BIGINT);
        statement.setObject(++i, entry.fosterHomeId(), Types.OTHER);
        statement.setObject(++i, entry.moreRefusals(), Types.INTEGER);
        statement.setString(++i, entry.assignment().traceId());
        statement.setBoolean(++i, entry.fosterHomeId() != null && AuditEntry.WRITTEN.equals(entry.outcome().name()));
        statement.setObject(++i, entry.fosterHomeId(), Types.OTHER);
        return i;
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    private static AuditRecordResponse map(ResultSet rs, int row) throws SQLException {
        Array roles = rs.getArray("caller_roles");
        return new AuditRecordResponse(
                rs.getLong("id"),
                rs.getObject("recorded_at", OffsetDateTime.class).toInstant(),
                rs.getString("request_id"),
                rs.getString("outcome"),
                rs.getInt("status"),
                rs.getString("problem_code"),
                rs.getString("caller_sub"),
                Arrays.asList((String[]) roles.getArray()),
                rs.getString("jurisdiction"),
                rs.getString("action"),
                rs.getString("resource_type"),
                rs.getObject("resource_id", UUID.class),
                rs.getObject("case_id", UUID.class),
                rs.getString("ruleset_jurisdiction"),
                rs.getString("ruleset_version"),
                rs.getString("rule_id"),
                rs.getString("after_rule_id"),
                rs.getObject("assignment_revision", Long.class),
                rs.getString("assigned_worker_sub"),
                rs.getString("supervisor_sub"),
                rs.getObject("row_version_before", Long.class),
                rs.getObject("row_version_after", Long.class),
                rs.getObject("foster_home_id", UUID.class),
                rs.getObject("home_occupancy", Integer.class),
                rs.getObject("more_refusals", Integer.class),
                rs.getString("assignment_trace_id"));
    }

    /** The filters of one page; null is "any". */
    record AuditQuery(String jurisdiction, UUID resourceId, String callerSub, Instant from, Instant until,
                      AuditCursor cursor) {
    }
}
