package org.caseassignments.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The log format an operator gets, from the service's own configuration (a child JVM without the tests'
 * logback-test.xml): by default every line is a JSON object (ECS), and the lines written while a request runs
 * carry its {@code request_id}, the caller's {@code sub} and the {@code case_id} as fields; with the empty
 * {@code LOG_FORMAT} of {@code ./run}, lines are the human-readable pattern.
 */
class LogFormatIntegrationTests {

    static final TestDatabase DB = TestDatabase.empty();
    static final Duration STARTUP = Duration.ofSeconds(120);

    @Test
    void shouldWriteJsonLinesWithTheRequestIdCallerAndCaseByDefault() throws Exception {
        try (Service api = Service.start(Map.of())) {
            // Given a case, when a caller creates under it with a request id of their own
            UUID caseId = Cases.assignedTo(DB.jdbc(), "w-1", "s-1", 1);
            Reply created = api.client().send(ApiClient.request("POST", "/cases/" + caseId + "/placements")
                    .token(TestTokens.caseworker("w-1").token()).header("X-Request-Id", "log-format-1").json("{}"));
            assertThat(created.status()).as(created.toString()).isEqualTo(201);

            // Then every line is one JSON object, and the decision's line names the request, the caller and the case
            JsonNode decision = api.decisionLine("log-format-1");
            assertThat(decision.path("sub").asString(null)).isEqualTo("w-1");
            assertThat(decision.path("case_id").asString(null)).isEqualTo(caseId.toString());
            assertThat(decision.has("@timestamp")).isTrue();
        }
    }

    @Test
    void shouldLogAndAnswerTheTraceIdOfTheCallersTraceparent() throws Exception {
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        String traceparent = "00-" + traceId + "-00f067aa0ba902b7-01";
        try (Service api = Service.start(Map.of())) {
            // Given a caller that sends its W3C trace context, when it creates under a case
            UUID caseId = Cases.assignedTo(DB.jdbc(), "w-1", "s-1", 1);
            Reply created = api.client().send(ApiClient.request("POST", "/cases/" + caseId + "/placements")
                    .token(TestTokens.caseworker("w-1").token()).header("X-Request-Id", "log-trace-1")
                    .header("traceparent", traceparent).json("{}"));
            assertThat(created.status()).as(created.toString()).isEqualTo(201);
            // and when a request of the same trace is answered with a problem document
            Reply missing = api.client().send(ApiClient.request("PATCH", "/placements/" + UUID.randomUUID())
                    .token(TestTokens.caseworker("w-1").token()).header("traceparent", traceparent)
                    .ifMatch(TestETags.placement(UUID.randomUUID(), 1)).json("{\"status\": \"ACTIVE\"}"));

            // Then the request's lines carry the caller's trace id, beside the request id, and so does the problem
            JsonNode decision = api.decisionLine("log-trace-1");
            assertThat(decision.path("trace.id").asString(null)).as(decision.toString()).isEqualTo(traceId);
            assertThat(decision.path("span.id").asString("")).as(decision.toString()).hasSize(16);
            assertThat(missing.status()).as(missing.toString()).isEqualTo(404);
            assertThat(missing.text("trace_id")).isEqualTo(traceId);
        }
    }

    @Test
    void shouldWriteTheHumanReadablePatternWhenLogFormatIsEmptyAsTheLocalStackSetsIt() throws Exception {
        try (Service api = Service.start(Map.of("LOG_FORMAT", ""))) {
            assertThat(api.output()).contains("Started MutationApiApplication");
            assertThat(api.output().lines().filter(line -> line.startsWith("{"))).isEmpty();
        }
    }

    /** The API in a JVM of its own, on the test classpath minus the test logging configuration. */
    private record Service(Process process, Path outputFile, int port) implements AutoCloseable {

        static Service start(Map<String, String> environment) throws IOException {
            int port = freePort();
            Path output = Files.createTempFile("mutation-api-log-", ".txt");
            List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                    "-cp", classpathWithoutTestLogging(), MutationApiApplication.class.getName(),
                    "--server.port=" + port, "--management.server.port=0",
                    "--spring.datasource.url=" + DB.jdbcUrl(), "--spring.datasource.username=" + DB.username(),
                    "--spring.datasource.password=" + DB.password(), "--auth.issuer=" + TestTokens.ISSUER,
                    "--auth.audience=" + TestTokens.AUDIENCE, "--auth.public-key-location=file:" + TestTokens.publicKeyPem(),
                    "--api.etag-secret=" + TestETags.SECRET, "--policy.reload-interval=0s"));
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(output.toFile());
            builder.environment().remove("LOG_FORMAT");
            builder.environment().putAll(environment);
            Service service = new Service(builder.start(), output, port);
            await().atMost(STARTUP).until(() -> {
                if (!service.process.isAlive()) {
                    throw new AssertionError("the API exited: " + service.output());
                }
                return service.output().contains("Started MutationApiApplication");
            });
            return service;
        }

        ApiClient client() {
            return new ApiClient(port);
        }

        String output() {
            try {
                return Files.readString(outputFile);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        /** The policy's decision line of the request with this id, once it is written. */
        JsonNode decisionLine(String requestId) {
            List<JsonNode> lines = await().atMost(Duration.ofSeconds(30)).until(this::jsonLines,
                    json -> json.stream().anyMatch(line -> requestId.equals(line.path("request_id").asString(null))));
            return lines.stream()
                    .filter(line -> requestId.equals(line.path("request_id").asString(null)))
                    .filter(line -> line.path("message").asString("").startsWith("decision=ALLOW")).findFirst()
                    .orElseThrow(() -> new AssertionError("no decision line for request " + requestId + " in " + output()));
        }

        List<JsonNode> jsonLines() {
            ObjectMapper json = new ObjectMapper();
            return output().lines().filter(line -> !line.isBlank()).map(line -> {
                JsonNode node = json.readTree(line);
                assertThat(node.isObject()).as(line).isTrue();
                return node;
            }).toList();
        }

        @Override
        public void close() throws Exception {
            process.destroy();
            process.waitFor();
            Files.deleteIfExists(outputFile);
        }

        private static String classpathWithoutTestLogging() {
            return Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                    .filter(entry -> !entry.contains("testkit") && !entry.endsWith("test-classes"))
                    .collect(Collectors.joining(File.pathSeparator));
        }

        private static int freePort() throws IOException {
            try (ServerSocket socket = new ServerSocket(0)) {
                return socket.getLocalPort();
            }
        }
    }
}
