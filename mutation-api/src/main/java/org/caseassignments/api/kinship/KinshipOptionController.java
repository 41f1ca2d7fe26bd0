package org.caseassignments.api.kinship;

import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import org.caseassignments.api.assignment.CaseLists;
import org.caseassignments.api.http.CaseScopedResource;
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
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.policy.ResourceType;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemCode;
import org.caseassignments.api.requestid.RequestIds;
import org.caseassignments.api.security.Caller;
import org.caseassignments.api.write.GuardedCreate;
import org.caseassignments.api.write.GuardedUpdate;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

@RestController
class KinshipOptionController {

    private final KinshipOptions options;
    private final PolicyEngine policy;
    private final GuardedCreate creates;
    private final GuardedUpdate updates;
    private final EntityTags etags;
    private final Idempotency idempotency;
    private final ListPaging paging;
    private final CaseLists lists;

    KinshipOptionController(KinshipOptions options, PolicyEngine policy, GuardedCreate creates, GuardedUpdate updates,
                            EntityTags etags, Idempotency idempotency, ListPaging paging, CaseLists lists) {
        this.paging = paging;
        this.lists = lists;
        this.idempotency = idempotency;
        this.options = options;
        this.policy = policy;
        this.creates = creates;
        this.updates = updates;
        this.etags = etags;
    }

    /** Creates a kinship option; its assignment comes from the case's projection row, never from the caller. */
    @Operation(summary = "Create a kinship option for a case")
    @PostMapping(CaseScopedResource.KINSHIP_OPTIONS_OF_CASE)
    ResponseEntity<KinshipOptionResponse> create(Caller caller, @PathVariable UUID caseId,
                                                 @Valid @RequestBody CreateKinshipOptionRequest request,
                                                 HttpServletRequest http) {
        IdempotentCreate<KinshipOptionResponse> idempotent = idempotency.begin(caller, http, request,
                KinshipOptionResponse.class, replayed -> options.find(replayed).map(KinshipOption::resource));
        UUID id = UUID.randomUUID();
        boolean approved = Boolean.TRUE.equals(request.approved());
        return idempotent.answer(() -> creates.run(caller, RequestIds.of(http), caseId, id, idempotent,
                assignment -> KinshipOption.createdIn(assignment, approved),
                held -> options.insert(id, held, request, caller.sub()),
                created -> {
                    String etag = etag(created);
                    return Responses.withAssignmentRevision(Responses.created(
                            CaseScopedResource.KINSHIP_OPTIONS.location(id), etag,
                            KinshipOptionResponse.of(created, etag)), created.assignmentRevision());
                }));
    }

    @Operation(summary = "Read one live kinship option")
    @GetMapping(CaseScopedResource.KINSHIP_OPTION)
    ResponseEntity<KinshipOptionResponse> get(Caller caller, @PathVariable UUID id, HttpServletRequest request) {
        KinshipOption option = options.find(id).orElseThrow(() -> new ApiProblem(ProblemCode.NOT_FOUND,
                "Kinship option " + id + " does not exist or was deleted"));
        policy.require(caller, Action.READ, option.resource());
        String etag = etag(option);
        return Responses.read(request, etag, KinshipOptionResponse.of(option, etag));
    }

    /**
     * The case's live kinship options the caller may read, in creation order, each with its ETag; a case not of the
     * caller's jurisdiction is a 403, as a read of one of its options is.
     *
     * @param limit  items per page, 1 to {@code api.lists.max-page-size} (also the default)
     * @param cursor the {@code next_cursor} of the previous page
     */
    @Operation(summary = "List the case's live kinship options the caller may read")
    @GetMapping(CaseScopedResource.KINSHIP_OPTIONS_OF_CASE)
    ListPage<KinshipOptionResponse> list(Caller caller, @PathVariable UUID caseId,
                                         @RequestParam(name = "limit", required = false) Integer limit,
                                         @RequestParam(name = "cursor", required = false) String cursor) {
        lists.requireListable(caller, caseId, assignment -> KinshipOption.resource(null, caseId, assignment.pair(),
                false, assignment.jurisdiction()));
        ListPage.Query query = paging.query(CaseScopedResource.KINSHIP_OPTIONS, caseId, limit, cursor);
        return paging.page(caller, query, ResourceType.KINSHIP_OPTION, () -> options.listByCase(caseId, query),
                option -> KinshipOptionResponse.of(option, etag(option)));
    }

    /** Every field is required: in {@code application/merge-patch+json} a null is refused, in JSON it keeps the field. */
    @Operation(summary = "Change a kinship option")
    @PatchMapping(path = CaseScopedResource.KINSHIP_OPTION,
            consumes = {MediaType.APPLICATION_JSON_VALUE, Patch.MERGE_PATCH_JSON})
    @RequiresIfMatch
    ResponseEntity<KinshipOptionResponse> update(Caller caller, IfMatch ifMatch, @PathVariable UUID id,
                                                 @RequestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
                                                 @Valid @RequestBody UpdateKinshipOptionRequest body,
                                                 HttpServletRequest http) {
        UpdateKinshipOptionRequest request = body.as(Patch.of(contentType));
        if (request.changesNothing()) {
            throw ApiProblem.invalidField("", "the request changes nothing; give at least one of relative_name, "
                    + "relationship, approved");
        }
        KinshipOption updated = updates.run(caller, RequestIds.of(http), ifMatch, KinshipOptionUpdate.update(options, id, request));
        String etag = etag(updated);
        return Responses.withAssignmentRevision(Responses.ok(etag, KinshipOptionResponse.of(updated, etag)), updated.assignmentRevision());
    }

    /** Soft delete, authorized as an update; the ETag is the deleted row's final version. */
    @Operation(summary = "Delete a kinship option (soft delete)")
    @DeleteMapping(CaseScopedResource.KINSHIP_OPTION)
    @RequiresIfMatch
    ResponseEntity<Void> delete(Caller caller, IfMatch ifMatch, @PathVariable UUID id, HttpServletRequest http) {
        KinshipOption deleted = updates.run(caller, RequestIds.of(http), ifMatch, KinshipOptionUpdate.delete(options, id));
        return Responses.withAssignmentRevision(Responses.noContent(etag(deleted)), deleted.assignmentRevision());
    }

    private String etag(KinshipOption option) {
        return etags.of(option.resource(), option.rowVersion(), option.derivedState());
    }
}
