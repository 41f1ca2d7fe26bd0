package org.caseassignments.schemas.serde;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.apache.avro.Schema;

/**
 * An HTTP stub of the two Confluent Schema Registry calls the serde makes, on a loopback port. It
 * records every request so tests can see caching, and can be told to fail. Shared with other
 * modules' tests through this module's test jar.
 */
public final class RegistryStub implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final Map<Integer, String> schemasById = new ConcurrentHashMap<>();
    private final Map<String, Integer> idsBySchema = new ConcurrentHashMap<>();
    /** Answers given as they are, for what a registry may hold besides plain Avro (JSON, Protobuf, references). */
    private final Map<Integer, String> answersById = new ConcurrentHashMap<>();
    final List<String> requests = new CopyOnWriteArrayList<>();
    final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final AtomicInteger nextId = new AtomicInteger(100);
    volatile int failWithStatus;

    public RegistryStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    /** A stub started, for a static field: failing to start is an {@link IllegalStateException}. */
    public static RegistryStub started() {
        try {
            return new RegistryStub();
        } catch (IOException e) {
            throw new IllegalStateException("could not start the registry stub", e);
        }
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Registers a schema as if another producer had, and returns its id. */
    public int preRegister(Schema schema) {
        return idsBySchema.computeIfAbsent(schema.toString(), s -> {
            int id = nextId.getAndIncrement();
            schemasById.put(id, s);
            return id;
        });
    }

    /**
     * Holds {@code answer} (the JSON body of {@code GET /schemas/ids/{id}}) under a new id, as a registry holding
     * schemas of other types would answer, e.g. {@code {"schemaType":"JSON","schema":"{}"}}.
     */
    public int preRegisterAnswer(String answer) {
        int id = nextId.getAndIncrement();
        answersById.put(id, answer);
        return id;
    }

    /** A new id the registry does not know (404) until {@link #publish} gives it a schema: a lagging follower. */
    public int reserveId() {
        return nextId.getAndIncrement();
    }

    /** Makes a reserved id known. */
    public void publish(int id, Schema schema) {
        schemasById.put(id, schema.toString());
    }

    /** Answers every request with {@code status} from now on (0: answers normally again). */
    public void failWith(int status) {
        failWithStatus = status;
    }

    /** An Avro body in the Confluent framing: the magic byte, the schema id, the body. */
    public static byte[] confluentFramed(int schemaId, byte[] body) {
        return ByteBuffer.allocate(5 + body.length).put((byte) 0).putInt(schemaId).put(body).array();
    }

    /** How many times the registry was asked for schema {@code id}. */
    public long requestsFor(int id) {
        return requests.stream().filter(("GET /schemas/ids/" + id)::equals).count();
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        requests.add(exchange.getRequestMethod() + " " + path);
        String auth = exchange.getRequestHeaders().getFirst("Authorization");
        if (auth != null) {
            authorizations.add(auth);
        }
        if (failWithStatus != 0) {
            respond(exchange, failWithStatus, "{\"error_code\":50001,\"message\":\"stub told to fail\"}");
            return;
        }
        if (exchange.getRequestMethod().equals("GET") && path.startsWith("/schemas/ids/")) {
            int id = Integer.parseInt(path.substring("/schemas/ids/".length()));
            String schema = schemasById.get(id);
            if (answersById.containsKey(id)) {
                respond(exchange, 200, answersById.get(id));
            } else if (schema == null) {
                respond(exchange, 404, "{\"error_code\":40403,\"message\":\"Schema not found\"}");
            } else {
                respond(exchange, 200, JSON.writeValueAsString(Map.of("schema", schema)));
            }
            return;
        }
        if (exchange.getRequestMethod().equals("POST") && path.startsWith("/subjects/") && path.endsWith("/versions")) {
            JsonNode body = JSON.readTree(exchange.getRequestBody());
            int id = preRegister(new Schema.Parser().parse(body.get("schema").asText()));
            respond(exchange, 200, "{\"id\":" + id + "}");
            return;
        }
        respond(exchange, 404, "{\"error_code\":404,\"message\":\"no such endpoint\"}");
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/vnd.schemaregistry.v1+json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
