package org.caseassignments.api.testsupport;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A small HTTP client for the application under test: answers every status as a {@link Reply}
 * instead of throwing, and can send a request without waiting for it ({@link #sendAsync}).
 */
public final class ApiClient {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    public ApiClient(int port) {
        this.base = "http://localhost:" + port;
    }

    public static Request request(String method, String path) {
        return new Request(method, path);
    }

    public Reply get(String path, String token) {
        return send(request("GET", path).token(token));
    }

    public Reply post(String path, String token, String json) {
        return send(request("POST", path).token(token).json(json));
    }

    public Reply patch(String path, String token, String ifMatch, String json) {
        return send(request("PATCH", path).token(token).ifMatch(ifMatch).json(json));
    }

    public Reply delete(String path, String token, String ifMatch) {
        return send(request("DELETE", path).token(token).ifMatch(ifMatch));
    }

    public Reply send(Request request) {
        try {
            return sendAsync(request).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("request " + request + " failed or did not answer in 30s", e);
        }
    }

    public CompletableFuture<Reply> sendAsync(Request request) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + request.path))
                .timeout(Duration.ofSeconds(30))
                .method(request.method, request.body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(request.body));
        if (request.token != null) {
            builder.header("Authorization", "Bearer " + request.token);
        }
        if (request.ifMatch != null) {
            builder.header("If-Match", request.ifMatch);
        }
        if (request.contentType != null) {
            builder.header("Content-Type", request.contentType);
        }
        request.headers.forEach(builder::header);
        return http.sendAsync(builder.build(), HttpResponse.BodyHandlers.ofString()).thenApply(Reply::new);
    }

    public static final class Request {
        private final String method;
        private final String path;
        private String token;
        private String ifMatch;
        private String contentType;
        private byte[] body;
        private final java.util.Map<String, String> headers = new java.util.LinkedHashMap<>();

        private Request(String method, String path) {
            this.method = method;
            this.path = path;
        }

        public Request token(String token) {
            this.token = token;
            return this;
        }

        public Request ifMatch(String ifMatch) {
            this.ifMatch = ifMatch;
            return this;
        }

        public Request header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        public Request json(String json) {
            return body("application/json", json.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }

        public Request body(String contentType, byte[] body) {
            this.contentType = contentType;
            this.body = body;
            return this;
        }

        @Override
        public String toString() {
            return method + " " + path;
        }
    }
}
