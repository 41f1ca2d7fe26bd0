package org.caseassignments.backfill.snapshot;

import java.util.UUID;

import org.caseassignments.schemas.jurisdiction.Jurisdictions;
import org.caseassignments.store.CaseIds;
import org.caseassignments.store.StorableText;

/**
 * Turns the four text fields of a snapshot row, and its optional jurisdiction, into a {@link SnapshotRow}
 * or a {@link BadRow}.
 * Every source funnels through here, so a row is judged the same whatever it came from.
 */
final class RowValidation {

    static final String CASE_ID = "case_id";
    static final String WORKER = "assigned_worker_sub";
    static final String SUPERVISOR = "supervisor_sub";
    static final String REVISION = "assignment_revision";
    static final String[] COLUMNS = {CASE_ID, WORKER, SUPERVISOR, REVISION};
    /** Optional: a snapshot without it leaves the jurisdictions the projection holds as they are. */
    static final String JURISDICTION = "jurisdiction";

    private RowValidation() {
    }

    /** Empty worker, supervisor or jurisdiction means none; the record text is only used to report a bad row. */
    static SnapshotRecord validate(long line, String caseId, String worker, String supervisor, String revision,
                                   String jurisdiction, String record) {
        if (caseId == null || caseId.isEmpty()) {
            return new BadRow(line, BadRow.MISSING_COLUMN, "case_id is empty", record);
        }
        UUID id = CaseIds.parse(caseId);
        if (id == null) {
            return new BadRow(line, BadRow.INVALID_CASE_ID, "case_id '" + caseId + "' is not a UUID", record);
        }
        if (revision == null || revision.isEmpty()) {
            return new BadRow(line, BadRow.MISSING_COLUMN, "assignment_revision is empty", record);
        }
        long parsed;
        try {
            parsed = Long.parseLong(revision.trim());
        } catch (NumberFormatException e) {
            return new BadRow(line, BadRow.INVALID_REVISION, "assignment_revision '" + revision + "' is not an integer", record);
        }
        if (parsed < 0) {
            return new BadRow(line, BadRow.NEGATIVE_REVISION, "assignment_revision " + parsed + " is negative; revisions are >= 0",
                    record);
        }
        String problem = StorableText.subjectProblem(WORKER, worker);
        if (problem == null) {
            problem = StorableText.subjectProblem(SUPERVISOR, supervisor);
        }
        if (problem != null) {
            return new BadRow(line, BadRow.INVALID_TEXT, problem, record);
        }
        String knownJurisdiction = emptyToNull(jurisdiction);
        if (knownJurisdiction != null && !Jurisdictions.isValidName(knownJurisdiction)) {
            return new BadRow(line, BadRow.INVALID_JURISDICTION, "jurisdiction is not a jurisdiction name ("
                    + Jurisdictions.PATTERN + ")", record);
        }
        return new SnapshotRow(line, id, emptyToNull(worker), emptyToNull(supervisor), parsed, knownJurisdiction);
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
