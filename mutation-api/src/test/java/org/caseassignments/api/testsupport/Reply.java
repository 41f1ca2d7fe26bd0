package org.caseassignments.api.testsupport;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** One HTTP answer: status, headers, body, and its JSON when it has one. */
public final class Reply {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpResponse<String> response;

    Reply(HttpResponse<String> response) {
        this.response = response;
    }

    public int status() {
        return response.statusCode();
    }

    public String body() {
        return response.body();
    }

    public Optional<String> header(String name) {
        return response.headers().firstValue(name);
    }

    /** Every header, by name. */
    public Map<String, List<String>> headers() {
        return response.headers().map();
    }

    public String etag() {
        return header("ETag").orElseThrow(() -> new AssertionError("no ETag on " + this));
    }

    public String contentType() {
        return header("Content-Type").orElse("");
    }

    public JsonNode json() {
        return JSON.readTree(response.body());
    }

    /** The problem document's {@code code}. */
    public String code() {
        return json().path("code").asString();
    }

    public String text(String field) {
        return json().path(field).asString(null);
    }

    @Override
    public String toString() {
        return response.request().method() + " " + response.uri().getPath() + " → " + status() + " " + body();
    }
}
