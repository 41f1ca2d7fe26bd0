package org.caseassignments.projector;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.apache.avro.Schema;

/**
 * A loopback HTTP stand-in for the two schema-registry calls the serde makes (look up a schema by
 * id, register one under a subject), so records can travel in the Confluent framing. The registry
 * is an external service, not the database or the broker; the schemas module's own stub is
 * test-scoped there and cannot be shared without a dependency cycle through testkit.
 */
final class RegistryStub implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final Map<Integer, String> schemas = new ConcurrentHashMap<>();
    private final Map<String, Integer> ids = new ConcurrentHashMap<>();
    private final AtomicInteger nextId = new AtomicInteger(1);

    RegistryStub() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** Registers a schema, as another producer would have, and returns its id. */
    int register(Schema schema) {
        return ids.computeIfAbsent(schema.toString(), text -> {
            int id = nextId.getAndIncrement();
            schemas.put(id, text);
            return id;
        });
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        if (exchange.getRequestMethod().equals("GET") && path.startsWith("/schemas/ids/")) {
            String schema = schemas.get(Integer.parseInt(path.substring("/schemas/ids/".length())));
            respond(exchange, schema == null ? 404 : 200, schema == null
                    ? "{\"error_code\":40403,\"message\":\"Schema not found\"}"
                    : JSON.writeValueAsString(Map.of("schema", schema)));
        } else if (exchange.getRequestMethod().equals("POST") && path.endsWith("/versions")) {
            String schema = JSON.readTree(exchange.getRequestBody()).get("schema").asText();
            respond(exchange, 200, "{\"id\":" + register(new Schema.Parser().parse(schema)) + "}");
        } else {
            respond(exchange, 404, "{\"error_code\":404,\"message\":\"not stubbed\"}");
        }
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
