package org.caseassignments.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import tools.jackson.databind.JsonNode;

/**
 * The served OpenAPI description meets what the usual linters (Redocly's recommended rules, Spectral's
 * {@code oas}) hold as errors or as the first things a reader looks for: every operation has a summary, the
 * info object a licence, and the servers are the configured ones; each list's paging parameters say their range,
 * up to the configured maximum. The document is also written to
 * {@code target/openapi.json}, for the linters themselves (docs/mutation-api.md#openapi).
 */
@ApiIntegrationTest
class OpenApiDocumentIntegrationTests {

    static final TestDatabase DB = TestDatabase.empty();
    static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "options", "head", "patch", "trace");

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("api.openapi.servers", () -> "https://case-assignments.agency.test, https://backup.agency.test");
        registry.add("api.lists.max-page-size", () -> "37");
    }

    /**
     * The writes mapped outside the case-scoped resources that are no case's and not under {@code /foster-homes}:
     * the error page, mapped for every method.
     */
    static final Set<String> WRITES_OF_NO_CASE = Set.of("/error");

    @LocalServerPort
    int port;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    @Test
    void shouldGiveEveryOperationASummaryAndTheInfoTheProjectsLicenceByDefaultAndServeTheConfiguredServers() throws IOException {
        Reply docs = new ApiClient(port).get("/v3/api-docs", null);
        assertThat(docs.status()).as(docs.toString()).isEqualTo(200);
        Files.writeString(Files.createDirectories(Path.of("target")).resolve("openapi.json"), docs.body());
        JsonNode openApi = docs.json();

        List<String> withoutSummary = new ArrayList<>();
        openApi.path("paths").properties().forEach(path -> path.getValue().properties().stream()
                .filter(operation -> METHODS.contains(operation.getKey()))
                .filter(operation -> operation.getValue().path("summary").asString("").isBlank())
                .forEach(operation -> withoutSummary.add(operation.getKey().toUpperCase() + " " + path.getKey())));
        assertThat(openApi.path("paths").size()).as("paths").isEqualTo(10);
        assertThat(withoutSummary).as("operations without a summary").isEmpty();
        assertThat(openApi.path("info").path("license").path("name").asString(null)).isEqualTo("Apache-2.0");
        assertThat(openApi.path("info").path("license").path("url").asString(null))
                .isEqualTo("https://www.apache.org/licenses/LICENSE-2.0");
        assertThat(openApi.path("servers").valueStream().map(server -> server.path("url").asString(null)).toList())
                .containsExactly("https://case-assignments.agency.test", "https://backup.agency.test");
    }

    @Test
    void shouldDocumentEachListsLimitUpToTheConfiguredMaximumAndItsCursor() {
        JsonNode paths = new ApiClient(port).get("/v3/api-docs", null).json().path("paths");

        for (String list : List.of("/cases/{caseId}/placements", "/cases/{caseId}/kinship-options", "/foster-homes",
                "/foster-homes/{id}/placements")) {
            JsonNode limit = queryParameter(paths.path(list).path("get"), "limit");
            assertThat(limit.path("description").asString("")).as(list).contains("1 to api.lists.max-page-size (37)");
            assertThat(limit.path("required").asBoolean(false)).as(list).isFalse();
            JsonNode schema = limit.path("schema");
            assertThat(schema.path("type").asString(null)).as(list).isEqualTo("integer");
            assertThat(schema.path("minimum").asInt()).as(list).isEqualTo(1);
            assertThat(schema.path("maximum").asInt()).as(list).isEqualTo(37);
            assertThat(schema.path("default").asInt()).as(list).isEqualTo(37);
            JsonNode cursor = queryParameter(paths.path(list).path("get"), "cursor");
            assertThat(cursor.path("description").asString("")).as(list).contains("next_cursor");
            assertThat(cursor.path("schema").path("type").asString(null)).as(list).isEqualTo("string");
        }
    }

    @Test
    void shouldDocumentTheRostersFiltersWithTheValuesTheyTake() {
        JsonNode paths = new ApiClient(port).get("/v3/api-docs", null).json().path("paths");
        JsonNode roster = paths.path("/foster-homes").path("get");
        JsonNode homePlacements = paths.path("/foster-homes/{id}/placements").path("get");

        assertThat(queryParameter(roster, "license_status").path("schema").path("enum").valueStream()
                .map(JsonNode::asString).toList()).containsExactly("PENDING", "ACTIVE", "SUSPENDED", "REVOKED");
        assertThat(queryParameter(roster, "admin_unit").path("description").asString("")).contains("100 characters");
        assertThat(queryParameter(roster, "min_room").path("schema").path("minimum").asInt()).isEqualTo(1);
        assertThat(queryParameter(homePlacements, "status").path("schema").path("enum").valueStream()
                .map(JsonNode::asString).toList()).containsExactly("PROPOSED", "ACTIVE", "ENDED", "CANCELLED");
    }

    private static JsonNode queryParameter(JsonNode operation, String name) {
        return operation.path("parameters").valueStream()
                .filter(parameter -> parameter.path("in").asString("").equals("query")
                        && parameter.path("name").asString("").equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no query parameter " + name + " in " + operation));
    }

    @Test
    void shouldMapEveryWriteEitherAtACaseScopedResourceOrAsNoCases() {
        // Given the handlers' mappings as served
        Set<String> writes = new TreeSet<>();
        mappings.getHandlerMethods().keySet().forEach(mapping -> {
            Set<RequestMethod> methods = mapping.getMethodsCondition().getMethods();
            if (methods.isEmpty() || methods.stream().anyMatch(method -> method != RequestMethod.GET)) {
                writes.addAll(mapping.getPatternValues());
            }
        });

        // When each write's pattern is looked up among the case-scoped resources
        List<String> unlisted = writes.stream()
                .filter(pattern -> CaseScopedResource.mappedAt(pattern).isEmpty())
                .filter(pattern -> !pattern.startsWith("/foster-homes") && !WRITES_OF_NO_CASE.contains(pattern))
                .toList();

        // Then a write is the case-scoped resources' (held for the projection, holding the case) only at their
        // mappings: none at a path they do not list, and each of their mappings is written
        assertThat(unlisted).as("writes mapped neither at a CaseScopedResource nor as no case's").isEmpty();
        assertThat(writes).containsAll(Arrays.stream(CaseScopedResource.values())
                .flatMap(resource -> Stream.of(resource.ofCase(), resource.record())).toList());
    }
}
