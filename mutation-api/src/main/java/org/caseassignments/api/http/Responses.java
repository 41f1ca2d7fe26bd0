package org.caseassignments.api.http;

import java.net.URI;

import org.springframework.http.ResponseEntity;

/** Successful answers carry the strong ETag of the version they show or wrote. */
public final class Responses {

    private Responses() {
    }

    public static <T> ResponseEntity<T> ok(long rowVersion, T body) {
        return ResponseEntity.ok().eTag(IfMatch.etag(rowVersion)).body(body);
    }

    public static <T> ResponseEntity<T> created(URI location, long rowVersion, T body) {
        return ResponseEntity.created(location).eTag(IfMatch.etag(rowVersion)).body(body);
    }

    public static ResponseEntity<Void> noContent(long rowVersion) {
        return ResponseEntity.noContent().eTag(IfMatch.etag(rowVersion)).build();
    }
}
