package org.caseassignments.schemas.serde;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.avro.Schema;

/**
 * A caching client for the two calls of the Confluent Schema Registry REST API the serde needs:
 * {@code GET /schemas/ids/{id}} and {@code POST /subjects/{subject}/versions}. Any registry that
 * speaks that API works (Confluent, Apicurio's compatibility API, Karapace, Redpanda). Schemas are
 * immutable per id, so both directions are cached for the life of the client.
 */
public class SchemaRegistryClient {

    private static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI baseUrl;
    private final String authorization;
    private final HttpClient http;
    private final Duration timeout;
    private final Map<Integer, Schema> schemasById = new ConcurrentHashMap<>();
    private final Map<Integer, String> unsupportedById = new ConcurrentHashMap<>();
    private final Map<String, Integer> idsBySubjectAndSchema = new ConcurrentHashMap<>();

    /**
     * @param baseUrl      registry root, e.g. {@code http://schema-registry:8081}
     * @param basicAuthUserInfo {@code user:password} for HTTP basic auth, or null
     */
    public SchemaRegistryClient(URI baseUrl, String basicAuthUserInfo, Duration timeout) {
        String root = baseUrl.toString();
        this.baseUrl = URI.create(root.endsWith("/") ? root : root + "/");
        this.authorization = basicAuthUserInfo == null || basicAuthUserInfo.isBlank()
                ? null
                : "Basic " + Base64.getEncoder().encodeToString(basicAuthUserInfo.getBytes(StandardCharsets.UTF_8));
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /**
     * The writer schema registered under {@code id}.
     *
     * @throws UnsupportedSchemaException when the registry holds something under {@code id} that is not a plain
     *                                    Avro schema this client can parse (a JSON or Protobuf schema, Avro with
     *                                    references to other subjects); like a schema, that never changes
     */
    public Schema schemaById(int id) {
        Schema cached = schemasById.get(id);
        if (cached != null) {
            return cached;
        }
        String unsupported = unsupportedById.get(id);
        if (unsupported != null) {
            throw new UnsupportedSchemaException(unsupported);
        }
        JsonNode body = send(request("schemas/ids/" + id).GET().build(), "schema id " + id);
        Schema schema;
        try {
            schema = avro(id, body);
        } catch (UnsupportedSchemaException e) {
            unsupportedById.putIfAbsent(id, e.getMessage());
            throw e;
        }
        schemasById.putIfAbsent(id, schema);
        return schema;
    }

    /** The registry's answer as an Avro schema, if it is one this client can use on its own. */
    private static Schema avro(int id, JsonNode body) {
        // The registry leaves out schemaType for Avro, its default type.
        String type = body.path("schemaType").asText("AVRO");
        if (!type.equals("AVRO")) {
            throw new UnsupportedSchemaException("schema id " + id + " is a " + type + " schema; case events are Avro");
        }
        JsonNode references = body.path("references");
        if (references.isArray() && !references.isEmpty()) {
            throw new UnsupportedSchemaException("schema id " + id + " is Avro with " + references.size()
                    + " references to other subjects, which this reader does not resolve");
        }
        try {
            return new Schema.Parser().parse(body.path("schema").asText());
        } catch (RuntimeException e) {
            throw new UnsupportedSchemaException("schema id " + id + " is not an Avro schema this reader can parse: "
                    + e.getMessage());
        }
    }

    /** Registers {@code schema} under {@code subject} (idempotent on the registry side) and returns its id. */
    public int register(String subject, Schema schema) {
        String key = subject + '\u0000' + schema;
        Integer cached = idsBySubjectAndSchema.get(key);
        if (cached != null) {
            return cached;
        }
        String payload;
        try {
            payload = JSON.writeValueAsString(Map.of("schema", schema.toString()));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        String path = "subjects/" + URLEncoder.encode(subject, StandardCharsets.UTF_8) + "/versions";
        JsonNode body = send(request(path).POST(HttpRequest.BodyPublishers.ofString(payload)).build(),
                "subject " + subject);
        int id = body.path("id").asInt(-1);
        if (id < 0) {
            throw new RegistryException("Registry answered without an id when registering subject " + subject);
        }
        idsBySubjectAndSchema.put(key, id);
        schemasById.putIfAbsent(id, schema);
        return id;
    }

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(baseUrl.resolve(path))
                .timeout(timeout)
                .header("Accept", CONTENT_TYPE + ", application/json")
                .header("Content-Type", CONTENT_TYPE);
        if (authorization != null) {
            builder.header("Authorization", authorization);
        }
        return builder;
    }

    private JsonNode send(HttpRequest request, String what) {
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new RegistryException("Schema registry at " + baseUrl + " unreachable for " + what + ": " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RegistryException("Interrupted while asking the schema registry for " + what, e);
        }
        if (response.statusCode() == 404) {
            throw new SchemaNotFoundException("Schema registry at " + baseUrl + " does not know " + what
                    + ": " + response.body());
        }
        if (response.statusCode() / 100 != 2) {
            throw new RegistryException("Schema registry at " + baseUrl + " answered " + response.statusCode()
                    + " for " + what + ": " + response.body(), response.statusCode());
        }
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new RegistryException("Schema registry answered unreadable JSON for " + what, e);
        }
    }

    /** The registry could not answer: transient, retry later. */
    public static class RegistryException extends RuntimeException {
        private final int status;

        public RegistryException(String message) {
            this(message, 0);
        }

        public RegistryException(String message, int status) {
            super(message);
            this.status = status;
        }

        public RegistryException(String message, Throwable cause) {
            super(message, cause);
            this.status = 0;
        }

        /** The HTTP status the registry answered with, or 0 when it did not answer. */
        public int status() {
            return status;
        }
    }

    /** The registry holds a schema under the id that this client cannot use: permanent. */
    public static class UnsupportedSchemaException extends RuntimeException {
        public UnsupportedSchemaException(String message) {
            super(message);
        }
    }

    /**
     * The registry answered that it does not know the schema or subject: permanent once the registry has caught
     * up, which a reader gives it a while to do ({@link SerdeSettings#registryNotFoundWindow()}).
     */
    public static class SchemaNotFoundException extends RegistryException {
        public SchemaNotFoundException(String message) {
            super(message, 404);
        }
    }
}
