package org.caseassignments.api.audit;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import org.caseassignments.api.audit.AuditRecords.AuditQuery;
import org.caseassignments.api.http.ListPaging;
import org.caseassignments.api.http.OpaqueCursor;
import org.caseassignments.api.policy.Action;
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.policy.ResourceType;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.security.Caller;
import org.caseassignments.store.StorableText;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The audit trail of the caller's jurisdiction, for callers its ruleset lets read {@code audit_record}
 * (the bundled rulesets: the {@code auditor} role). The query is bound to the caller's jurisdiction: no
 * filter or cursor reaches another's records, and a cursor is accepted only with the jurisdiction and filters
 * it was handed out for.
 */
@RestController
class AuditController {

    /** One page, newest first; {@code next_cursor} is null on the last page. */
    record AuditPage(List<AuditRecordResponse> records, String nextCursor) {
    }

    private static final int DEFAULT_LIMIT = 100;

    private final AuditRecords records;
    private final PolicyEngine policy;
    private final AuditProperties properties;
    private final OpaqueCursor cursors;

    AuditController(AuditRecords records, PolicyEngine policy, AuditProperties properties, OpaqueCursor cursors) {
        this.cursors = cursors;
        this.records = records;
        this.policy = policy;
        this.properties = properties;
    }

    /**
     * @param resourceId records of one resource (placement, kinship option or foster home)
     * @param callerSub  records of one caller's requests
     * @param from       records at or after this time (RFC 3339)
     * @param until      records before this time (RFC 3339)
     * @param cursor     the {@code next_cursor} of the previous page, with the same filters
     * @param limit      records per page, 1 to {@code api.audit.max-page-size}; 100 by default
     */
    @Operation(summary = "Read the jurisdiction's audit records, newest first")
    @GetMapping("/audit")
    AuditPage list(Caller caller,
                   @RequestParam(name = "resource_id", required = false) UUID resourceId,
                   @RequestParam(name = "caller_sub", required = false) String callerSub,
                   @RequestParam(name = "from", required = false) String from,
                   @RequestParam(name = "until", required = false) String until,
                   @RequestParam(name = "cursor", required = false) String cursor,
                   @RequestParam(name = "limit", required = false) Integer limit) {
        policy.require(caller, Action.READ, new ResourceRef(ResourceType.AUDIT_RECORD, null, null, null, null, Map.of(),
                caller.jurisdiction()));
        int pageSize = limit == null ? Math.min(DEFAULT_LIMIT, properties.maxPageSize()) : limit;
        if (pageSize < 1 || pageSize > properties.maxPageSize()) {
            throw ApiProblem.invalidField("limit", "must be between 1 and " + properties.maxPageSize());
        }
        if (callerSub != null && callerSub.isBlank()) {
            throw ApiProblem.invalidField("caller_sub", "must not be blank");
        }
        String subjectProblem = StorableText.subjectProblem("caller_sub", callerSub);
        if (subjectProblem != null) {
            throw ApiProblem.invalidField("caller_sub", subjectProblem);
        }
        Instant since = instant("from", from);
        Instant before = instant("until", until);
        String scope = AuditCursor.scope(caller.jurisdiction(), resourceId, callerSub, since, before);
        AuditCursor position = cursor == null ? null : AuditCursor.decode(cursors, scope, cursor)
                .orElseThrow(ListPaging::notHandedOut);
        AuditQuery query = new AuditQuery(caller.jurisdiction(), resourceId, callerSub, since, before, position);
        // one more than the page holds tells whether there is a next page
        List<AuditRecordResponse> found = records.page(query, pageSize + 1);
        if (found.size() <= pageSize) {
            return new AuditPage(found, null);
        }
        List<AuditRecordResponse> page = found.subList(0, pageSize);
        AuditRecordResponse last = page.get(pageSize - 1);
        return new AuditPage(List.copyOf(page), new AuditCursor(last.recordedAt(), last.id()).encode(cursors, scope));
    }

    private static Instant instant(String name, String value) {
        if (value == null) {
            return null;
        }
        Instant time;
        try {
            time = OffsetDateTime.parse(value).toInstant();
        } catch (DateTimeParseException e) {
            throw ApiProblem.invalidField(name, "must be an RFC 3339 date-time with an offset, such as "
                    + "2026-11-30T12:00:00Z");
        }
        if (!RecordedAt.inRange(time)) {
            throw ApiProblem.invalidField(name, "must be from " + RecordedAt.FIRST + " to " + RecordedAt.LAST);
        }
        return time;
    }
}
