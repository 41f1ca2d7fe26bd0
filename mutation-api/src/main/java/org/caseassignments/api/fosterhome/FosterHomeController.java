package org.caseassignments.api.fosterhome;

import java.net.URI;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import org.caseassignments.api.audit.AuditAction;
import org.caseassignments.api.audit.AuditTrail;
import org.caseassignments.api.http.EntityTags;
import org.caseassignments.api.http.IfMatch;
import org.caseassignments.api.http.ListPage;
import org.caseassignments.api.http.ListPaging;
import org.caseassignments.api.http.Patch;
import org.caseassignments.api.http.RequiresIfMatch;
import org.caseassignments.api.http.Responses;
import org.caseassignments.api.idempotency.Idempotency;
import org.caseassignments.api.idempotency.IdempotentCreate;
import org.caseassignments.api.policy.Action;
import org.caseassignments.api.policy.Decision;
import org.caseassignments.api.policy.PolicyDenied;
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.policy.ResourceType;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.requestid.RequestIds;
import org.caseassignments.api.security.Caller;
import org.caseassignments.api.write.GuardedUpdate;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.web.bind.annotation.RestController;

@RestController
class FosterHomeController {

    private final FosterHomes homes;
    private final PolicyEngine policy;
    private final GuardedUpdate updates;
    private final EntityTags etags;
    private final Idempotency idempotency;
    private final AuditTrail audit;
    private final TransactionTemplate transactions;
    private final ReadableHomes readable;
    private final ListPaging paging;

    FosterHomeController(FosterHomes homes, PolicyEngine policy, GuardedUpdate updates, EntityTags etags,
                         Idempotency idempotency, AuditTrail audit, TransactionTemplate transactions,
                         ReadableHomes readable, ListPaging paging) {
        this.readable = readable;
        this.paging = paging;
        this.idempotency = idempotency;
        this.audit = audit;
        this.transactions = transactions;
        this.homes = homes;
        this.policy = policy;
        this.updates = updates;
        this.etags = etags;
    }

    /**
     * Creates a foster home with a PENDING license, in the caller's jurisdiction. The decision sees the
     * requested admin unit (the destination), so a county director can only create homes in units they administer. One INSERT
     * and its audit record in one transaction (with an Idempotency-Key, also the key's claim and record); a
     * duplicate license number is 409.
     */
    @Operation(summary = "Create a foster home with a PENDING license")
    @PostMapping("/foster-homes")
    ResponseEntity<FosterHomeResponse> create(Caller caller, @Valid @RequestBody CreateFosterHomeRequest request,
                                              HttpServletRequest http) {
        IdempotentCreate<FosterHomeResponse> idempotent = idempotency.begin(caller, http, request,
                FosterHomeResponse.class, replayed -> homes.find(replayed).map(FosterHome::resource));
        ResourceRef requested = FosterHome.resource(null, request.adminUnit(), LicenseStatus.PENDING,
                caller.jurisdiction());
        Decision decision;
        try {
            decision = policy.require(caller, Action.CREATE, requested);
        } catch (PolicyDenied denial) {
            audit.denied(caller, RequestIds.of(http), AuditAction.CREATE, requested, denial, null);
            throw denial;
        }
        // the key's claim and record, if any, in the create's transaction with its audit record
        return idempotent.answer(() -> transactions.execute(status -> {
            idempotent.claim();
            FosterHome created = homes.insert(UUID.randomUUID(), request, caller.jurisdiction());
            String etag = etag(created);
            ResponseEntity<FosterHomeResponse> response = Responses.created(URI.create("/foster-homes/" + created.id()),
                    etag, FosterHomeResponse.of(created, etag));
            audit.created(caller, RequestIds.of(http), decision, created.resource(), AuditTrail.Held.NONE,
                    created.rowVersion(), created.id(), idempotent.record(response));
            return response;
        }));
    }

    @Operation(summary = "Read one foster home")
    @GetMapping("/foster-homes/{id}")
    ResponseEntity<FosterHomeResponse> get(Caller caller, @PathVariable UUID id, HttpServletRequest request) {
        FosterHome home = readable.read(caller, id);
        String etag = etag(home);
        return Responses.read(request, etag, FosterHomeResponse.of(home, etag));
    }

    /**
     * The roster: the homes of the caller's jurisdiction the caller may read, in creation order, each with its ETag.
     * Only the caller's jurisdiction's homes are read at all, so another's neither show nor move the cursor; a home
     * the ruleset does not let the caller read is left out of its page, and a caller who may read no home at all gets
     * the empty last page without a read (decision 45).
     *
     * @param licenseStatus homes with this licence status
     * @param adminUnit     homes of this admin unit
     * @param minRoom       homes with at least this many places left (capacity minus ACTIVE placements; a home
     *                      without a capacity always qualifies)
     * @param limit         items per page, 1 to {@code api.lists.max-page-size} (also the default)
     * @param cursor        the {@code next_cursor} of the previous page, with the same filters
     */
    @Operation(summary = "List the foster homes of the caller's jurisdiction the caller may read")
    @GetMapping("/foster-homes")
    ListPage<FosterHomeResponse> list(Caller caller,
            @Parameter(description = "Homes with this licence status; 400 VALIDATION_FAILED for any other value",
                    schema = @Schema(implementation = LicenseStatus.class))
            @RequestParam(name = "license_status", required = false) String licenseStatus,
            @Parameter(description = "Homes of this admin unit, as written when the home was created or changed (one "
                    + "line of text, 1 to " + RosterFilter.MAX_ADMIN_UNIT + " characters)")
            @RequestParam(name = "admin_unit", required = false) String adminUnit,
            @Parameter(description = "Homes with at least this many places left: capacity minus ACTIVE placements; a "
                    + "home without a capacity always has room", schema = @Schema(type = "integer", minimum = "1"))
            @RequestParam(name = "min_room", required = false) Integer minRoom,
            @RequestParam(name = "limit", required = false) Integer limit,
            @RequestParam(name = "cursor", required = false) String cursor) {
        RosterFilter filter = RosterFilter.of(licenseStatus, adminUnit, minRoom);
        ListPage.Query query = paging.query(filter.scope(caller.jurisdiction()), limit, cursor);
        return paging.page(caller, query, ResourceType.FOSTER_HOME, () -> homes.list(caller.jurisdiction(), filter, query),
                home -> FosterHomeResponse.of(home, etag(home)));
    }

    /** {@code application/json}: absent or null keeps a field; {@code application/merge-patch+json}: null clears capacity. */
    @Operation(summary = "Change a foster home")
    @PatchMapping(path = "/foster-homes/{id}", consumes = {MediaType.APPLICATION_JSON_VALUE, Patch.MERGE_PATCH_JSON})
    @RequiresIfMatch
    ResponseEntity<FosterHomeResponse> update(Caller caller, IfMatch ifMatch, @PathVariable UUID id,
                                              @RequestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
                                              @Valid @RequestBody UpdateFosterHomeRequest body,
                                              HttpServletRequest http) {
        UpdateFosterHomeRequest request = body.as(Patch.of(contentType));
        if (request.changesNothing()) {
            throw ApiProblem.invalidField("", "the request changes nothing; give at least one of name, capacity, "
                    + "admin_unit, license_number, license_status");
        }
        FosterHome updated = updates.run(caller, RequestIds.of(http), ifMatch, new FosterHomeUpdate(homes, id, request));
        String etag = etag(updated);
        return Responses.ok(etag, FosterHomeResponse.of(updated, etag));
    }

    private String etag(FosterHome home) {
        return etags.of(home.resource(), home.rowVersion(), home.derivedState());
    }
}
