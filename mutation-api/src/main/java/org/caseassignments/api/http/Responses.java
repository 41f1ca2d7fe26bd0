package org.caseassignments.api.http;

import java.net.URI;

import org.springframework.http.ResponseEntity;

/** Successful answers carry the strong ETag ({@link EntityTags}) of the version they show or wrote. */
public final class Responses {

    private Responses() {
    }

    public static <T> ResponseEntity<T> ok(String etag, T body) {
        return ResponseEntity.ok().eTag(etag).body(body);
    }

    public static <T> ResponseEntity<T> created(URI location, String etag, T body) {
        return ResponseEntity.created(location).eTag(etag).body(body);
    }

    public static ResponseEntity<Void> noContent(String etag) {
        return ResponseEntity.noContent().eTag(etag).build();
    }
}
