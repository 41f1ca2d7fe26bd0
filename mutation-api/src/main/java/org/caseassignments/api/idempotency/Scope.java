package org.caseassignments.api.idempotency;

/** What a key is unique within: the caller and the endpoint (method and path template). */
record Scope(String callerSub, String endpoint, String key) {
}
