package org.caseassignments.api.fosterhome;

import java.net.URI;
import java.util.UUID;

import io.swagger.v3.oas.annotations.Operation;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.validation.Valid;
import org.caseassignments.api.audit.AuditAction;
import org.caseassignments.api.audit.AuditTrail;
import org.caseassignments.api.http.EntityTags;
import org.caseassignments.api.http.IfMatch;
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
import org.caseassignments.api.problem.ApiProblem;
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

    FosterHomeController(FosterHomes homes, PolicyEngine policy, GuardedUpdate updates, EntityTags etags,
                         Idempotency idempotency, AuditTrail audit, TransactionTemplate transactions) {
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
            audit.denied(caller, AuditAction.CREATE, requested, denial, null);
            throw denial;
        }
        // the key's claim and record, if any, in the create's transaction with its audit record
        return idempotent.answer(() -> transactions.execute(status -> {
            idempotent.claim();
            FosterHome created = homes.insert(UUID.randomUUID(), request, caller.jurisdiction());
            ResponseEntity<FosterHomeResponse> response = Responses.created(URI.create("/foster-homes/" + created.id()),
                    etag(created), FosterHomeResponse.of(created));
            audit.created(caller, decision, created.resource(), null, created.rowVersion(), created.id(),
                    idempotent.record(response));
            return response;
        }));
    }

    @Operation(summary = "Read one foster home")
    @GetMapping("/foster-homes/{id}")
    ResponseEntity<FosterHomeResponse> get(Caller caller, @PathVariable UUID id, HttpServletRequest request) {
        FosterHome home = homes.find(id).orElseThrow(() -> ApiProblem.notFound("Foster home", id));
        policy.require(caller, Action.READ, home.resource());
        return Responses.read(request, etag(home), FosterHomeResponse.of(home));
    }

    /** {@code application/json}: absent or null keeps a field; {@code application/merge-patch+json}: null clears capacity. */
    @Operation(summary = "Change a foster home")
    @PatchMapping(path = "/foster-homes/{id}", consumes = {MediaType.APPLICATION_JSON_VALUE, Patch.MERGE_PATCH_JSON})
    @RequiresIfMatch
    ResponseEntity<FosterHomeResponse> update(Caller caller, IfMatch ifMatch, @PathVariable UUID id,
                                              @RequestHeader(HttpHeaders.CONTENT_TYPE) String contentType,
                                              @Valid @RequestBody UpdateFosterHomeRequest body) {
        UpdateFosterHomeRequest request = body.as(Patch.of(contentType));
        if (request.changesNothing()) {
            throw ApiProblem.invalidField("", "the request changes nothing; give at least one of name, capacity, "
                    + "admin_unit, license_number, license_status");
        }
        FosterHome updated = updates.run(caller, ifMatch, new FosterHomeUpdate(homes, id, request));
        return Responses.ok(etag(updated), FosterHomeResponse.of(updated));
    }

    private String etag(FosterHome home) {
        return etags.of(home.resource(), home.rowVersion(), home.derivedState());
    }
}
