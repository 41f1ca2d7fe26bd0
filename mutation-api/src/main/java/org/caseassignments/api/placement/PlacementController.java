package org.caseassignments.api.placement;

import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Schema;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import org.caseassignments.api.assignment.CaseLists;
import org.caseassignments.api.http.CaseScopedResource;
import org.caseassignments.api.http.EntityTags;
import org.caseassignments.api.http.IfMatch;
import org.caseassignments.api.http.ListPage;
import org.caseassignments.api.http.ListPaging;
import org.caseassignments.api.http.OpaqueCursor;
import org.caseassignments.api.http.Patch;
import org.caseassignments.api.http.RequiresIfMatch;
import org.caseassignments.api.http.Responses;
import org.caseassignments.api.idempotency.Idempotency;
import org.caseassignments.api.idempotency.IdempotentCreate;
import org.caseassignments.api.policy.Action;
import org.caseassignments.api.policy.FosterHomeReads;
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.policy.ResourceType;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.requestid.RequestIds;
import org.caseassignments.api.security.Caller;
import org.caseassignments.api.write.GuardedCreate;
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
import org.springframework.web.bind.annotation.RestController;

@RestController
class PlacementController {

    private final Placements placements;
    private final PolicyEngine policy;
    private final GuardedCreate creates;
    private final GuardedUpdate updates;
    private final EntityTags etags;
    private final Idempotency idempotency;
    private final ListPaging paging;
    private final CaseLists lists;
    private final FosterHomeReads homes;

    PlacementController(Placements placements, PolicyEngine policy, GuardedCreate creates, GuardedUpdate updates,
                        EntityTags etags, Idempotency idempotency, ListPaging paging, CaseLists lists,
                        FosterHomeReads homes) {
        this.homes = homes;
        this.paging = paging;
        this.lists = lists;
        this.idempotency = idempotency;
        this.placements = placements;
        this.policy = policy;
        this.creates = creates;
        this.updates = updates;
        this.etags = etags;
    }

    /** Creates a PROPOSED placement; its assignment comes from the case's projection row, never from the caller. */
    @Operation(summary = "Create a PROPOSED placement for a case")
    @PostMapping(CaseScopedResource.PLACEMENTS_OF_CASE)
    ResponseEntity<PlacementResponse> create(Caller caller, @PathVariable UUID caseId,
                                             @Valid @RequestBody CreatePlacementRequest request,
                                             HttpServletRequest http) {
        if (request.startDate() != null && request.endDate() != null && request.endDate().isBefore(request.startDate())) {
            throw ApiProblem.invalidField("end_date", "must not be before start_date (" + request.startDate() + ")");
        }
        IdempotentCreate<PlacementResponse> idempotent = idempotency.begin(caller, http, request, PlacementResponse.class,
                replayed -> placements.find(replayed).map(Placement::resource));
        UUID id = UUID.randomUUID();
        return idempotent.answer(() -> creates.run(caller, RequestIds.of(http), caseId, id, idempotent,
                Placement::proposedIn,
                held -> {
                    if (request.fosterHomeId() != null
                            && !placements.fosterHomeExists(request.fosterHomeId(), held.assignment().jurisdiction())) {
                        throw ApiProblem.invalidField("foster_home_id", "no foster home has this id");
                    }
                    return placements.insert(id, held, request, caller.sub());
                },
                created -> {
                    String etag = etag(created);
                    return Responses.withAssignmentRevision(Responses.created(
                            CaseScopedResource.PLACEMENTS.location(id), etag,
                            PlacementResponse.of(created, etag)), created.assignmentRevision());
                }));
    }

    @Operation(summary = "Read one placement")
    @GetMapping(CaseScopedResource.PLACEMENT)
    ResponseEntity<PlacementResponse> get(Caller caller, @PathVariable UUID id, HttpServletRequest request) {
        Placement placement = placements.find(id).orElseThrow(() -> ApiProblem.notFound("Placement", id));
        policy.require(caller, Action.READ, placement.resource());
        String etag = etag(placement);
        return Responses.read(request, etag, PlacementResponse.of(placement, etag));
    }

    /**
     * The case's placements the caller may read, in creation order, each with its ETag; a case not of the caller's
     * jurisdiction is a 403, as a read of one of its placements is.
     *
     * @param limit  items per page, 1 to {@code api.lists.max-page-size} (also the default)
     * @param cursor the {@code next_cursor} of the previous page
     */
    @Operation(summary = "List the case's placements the caller may read")
    @GetMapping(CaseScopedResource.PLACEMENTS_OF_CASE)
    ListPage<PlacementResponse> list(Caller caller, @PathVariable UUID caseId,
                                     @RequestParam(name = "limit", required = false) Integer limit,
                                     @RequestParam(name = "cursor", required = false) String cursor) {
        lists.requireListable(caller, caseId, assignment -> Placement.resource(null, caseId, assignment.pair(),
                PlacementStatus.PROPOSED, assignment.jurisdiction()));
        ListPage.Query query = paging.query(CaseScopedResource.PLACEMENTS, caseId, limit, cursor);
        return paging.page(caller, query, ResourceType.PLACEMENT, () -> placements.listByCase(caseId, query),
                placement -> PlacementResponse.of(placement, etag(placement)));
    }

    /**
     * The placements in a foster home the caller may read, in creation order, each with its ETag: who lives there (its
     * ACTIVE placements), who was proposed or lived there. The home is decided first as its single read is (a home of
     * another jurisdiction is its empty 403); a placement of a case of another jurisdiction (a case that moved, decision
     * 43) is not even read, so it never fills a page with nothing; then each placement as its own read is (decision 45).
     *
     * @param status only placements of this status
     * @param limit  items per page, 1 to {@code api.lists.max-page-size} (also the default)
     * @param cursor the {@code next_cursor} of the previous page, with the same status
     */
    @Operation(summary = "List the placements in a foster home the caller may read")
    @GetMapping("/foster-homes/{id}/placements")
    ListPage<PlacementResponse> listByHome(Caller caller, @PathVariable UUID id,
            @Parameter(description = "Only placements of this status; 400 VALIDATION_FAILED for any other value",
                    schema = @Schema(implementation = PlacementStatus.class))
            @RequestParam(name = "status", required = false) String status,
            @RequestParam(name = "limit", required = false) Integer limit,
            @RequestParam(name = "cursor", required = false) String cursor) {
        PlacementStatus only = ListPaging.oneOf("status", status, PlacementStatus.class);
        homes.requireReadable(caller, id);
        ListPage.Query query = paging.query(OpaqueCursor.scope("foster-home-placements", caller.jurisdiction(), id,
                only), limit, cursor);
        return paging.page(caller, query, ResourceType.PLACEMENT,
                () -> placements.listByHome(id, caller.jurisdiction(), only, query),
                placement -> PlacementResponse.of(placement, etag(placement)));
    }

    /** {@code application/json}: absent or null keeps a field; {@code application/merge-patch+json}: null clears it. */
    @Operation(summary = "Change a placement")
    @PatchMapping(path = CaseScopedResource.PLACEMENT,
            consumes = {MediaType.APPLICATION_JSON_VALUE, Patch.MERGE_PATCH_JSON})
    @RequiresIfMatch
    ResponseEntity<PlacementResponse> update(Caller caller, IfMatch ifMatch, @PathVariable UUID id,
                                             @RequestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
                                             @Valid @RequestBody UpdatePlacementRequest body,
                                             HttpServletRequest http) {
        UpdatePlacementRequest request = body.as(Patch.of(contentType));
        if (request.changesNothing()) {
            throw ApiProblem.invalidField("", "the request changes nothing; give at least one of status, "
                    + "foster_home_id, start_date, end_date");
        }
        Placement updated = updates.run(caller, RequestIds.of(http), ifMatch, new PlacementUpdate(placements, id, request));
        String etag = etag(updated);
        return Responses.withAssignmentRevision(Responses.ok(etag, PlacementResponse.of(updated, etag)), updated.assignmentRevision());
    }

    private String etag(Placement placement) {
        return etags.of(placement.resource(), placement.rowVersion(), placement.derivedState());
    }
}
