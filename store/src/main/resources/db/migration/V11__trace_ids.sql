-- One trace id end to end (decision 34). The trace id of the upstream's W3C traceparent header on the event that
-- set an assignment, 32 lower-case hex digits, read strictly by the projector (a malformed header leaves it null):
-- on the projection row, written by the guarded upsert only when that event's revision is applied (a revision
-- applied without one clears it, so the row always names the event that set it), and on the history entry of
-- that revision. The mutation API copies the trace id of the assignment it held FOR SHARE into the write's audit
-- record. Nullable columns without a default: adding them rewrites no row.

ALTER TABLE case_assignments ADD COLUMN trace_id text NULL;
ALTER TABLE case_assignment_history ADD COLUMN trace_id text NULL;
ALTER TABLE audit_records ADD COLUMN assignment_trace_id text NULL;

COMMENT ON COLUMN case_assignments.trace_id IS
    'W3C trace id of the upstream event whose revision the row holds; null when that event carried no valid traceparent.';
COMMENT ON COLUMN case_assignment_history.trace_id IS
    'W3C trace id of the event that brought this revision; null when it carried none (or for a snapshot row).';
COMMENT ON COLUMN audit_records.assignment_trace_id IS
    'W3C trace id of the event that set the assignment the write held FOR SHARE; null when none.';
