package org.caseassignments.api.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Tokens the service once accepted leniently, each signed by the trusted key and otherwise valid,
 * sent over HTTP: every one is a 401 with an empty body, and the same token without the defect is
 * not.
 */
@ApiIntegrationTest
class StrictTokensIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @LocalServerPort
    int port;

    private ApiClient api;
    private String home;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
        home = "/foster-homes/" + Rows.fosterHome().insert(DB.jdbc());
    }

    @Test
    void shouldAcceptTheSameTokensWithoutTheirDefects() {
        assertThat(api.get(home, TestTokens.admin("a-1").token()).status()).isEqualTo(200);
        assertThat(api.get(home, TestTokens.countyDirector("d-1", "unit-1").token()).status()).isEqualTo(200);
        assertThat(api.get(home, TestTokens.admin("s".repeat(TokenRules.MAX_SUBJECT_LENGTH)).token()).status())
                .isEqualTo(200);
        assertThat(api.get(home, TestTokens.admin("a-1").jurisdiction("texas").token()).status())
                .as("a valid Texas token is authenticated, then denied the Georgia home").isEqualTo(403);
        Reply noRoles = api.get(home, TestTokens.subject("x-1").claim("roles", null).claim("admin_units", null).token());
        assertThat(noRoles.status()).as("absent roles are no roles: authenticated, then denied").isEqualTo(403);
    }

    @Test
    void shouldRefuse401ATokenWithoutExpiry() {
        assertUnauthorized(TestTokens.admin("a-1").withoutExpiry());
    }

    @Test
    void shouldRefuse401RolesGivenAsAStringRatherThanAnArray() {
        assertUnauthorized(TestTokens.admin("a-1").claim("roles", "admin"));
        assertThat(api.post("/foster-homes", TestTokens.subject("a-1").claim("roles", "admin").token(),
                "{\"name\": \"Oak\", \"license_number\": \"GA-STR-1\", \"admin_unit\": \"unit-1\"}").status())
                .as("a string \"admin\" is not admin").isEqualTo(401);
    }

    @Test
    void shouldRefuse401RolesThatAreNotAllStrings() {
        assertUnauthorized(TestTokens.subject("a-1").claim("roles", List.of("admin", 1)));
    }

    @Test
    void shouldRefuse401AdminUnitsGivenAsAStringRatherThanAnArray() {
        assertUnauthorized(TestTokens.countyDirector("d-1").claim("admin_units", "unit-1"));
    }

    @Test
    void shouldRefuse401ASubjectContainingNul() {
        assertUnauthorized(TestTokens.admin("a-1\u0000; DROP"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "\t \n"})
    void shouldRefuse401ABlankSubject(String sub) {
        assertUnauthorized(TestTokens.admin(sub));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a\tb", "a\nb", "a\rb", "\u001b[2Ja", "a\u007f", "a\u0085b", "a\u009bb"})
    void shouldRefuse401ASubjectWithOtherControlCharacters(String sub) {
        assertUnauthorized(TestTokens.admin(sub));
    }

    /** (A JSON number as {@code sub} is read as its decimal string by the JWT library, before any rule sees it.) */
    @Test
    void shouldRefuse401ASubjectThatIsTooLongOrAnObject() {
        assertUnauthorized(TestTokens.admin("s".repeat(TokenRules.MAX_SUBJECT_LENGTH + 1)));
        assertUnauthorized(TestTokens.admin("a-1").claim("sub", Map.of("id", "a-1")));
    }

    /** Roles and admin units are stored in refusal and write records, so they obey the subject's text rules. */
    @Test
    void shouldRefuse401RolesOrAdminUnitsWithANulAControlCharacterOrAnOverlongElement() {
        assertUnauthorized(TestTokens.subject("a-1").claim("roles", List.of("admin", "x\u0000y")));
        assertUnauthorized(TestTokens.subject("a-1").claim("roles", List.of("admin\u0085")));
        assertUnauthorized(TestTokens.countyDirector("d-1").claim("admin_units", List.of("unit-1", "a\nb")));
        assertUnauthorized(TestTokens.countyDirector("d-1").claim("admin_units", List.of("u".repeat(TokenRules.MAX_SUBJECT_LENGTH + 1))));
        assertThat(api.post("/foster-homes", TestTokens.subject("a-1").claim("roles", List.of("admin", "\u0000")).token(),
                "{\"name\": \"Oak\", \"license_number\": \"GA-NUL-1\", \"admin_unit\": \"unit-1\"}").status())
                .as("a create whose record would carry the NUL role").isEqualTo(401);
    }

    @Test
    void shouldRefuse401AJurisdictionNoRulesetServes() {
        assertUnauthorized(TestTokens.admin("a-1").jurisdiction("atlantis"));
        assertUnauthorized(TestTokens.admin("a-1").jurisdiction("Georgia"));
    }

    @Test
    void shouldRefuse401ATokenWithoutAJurisdictionOrWithANonStringOne() {
        assertUnauthorized(TestTokens.admin("a-1").jurisdiction(null));
        assertUnauthorized(TestTokens.admin("a-1").claim("jurisdiction", List.of("georgia")));
    }

    @Test
    void shouldNotClaimCertificateBoundTokensInTheProtectedResourceMetadata() {
        Reply metadata = api.get("/.well-known/oauth-protected-resource", null);

        assertThat(metadata.status()).as(metadata.toString()).isEqualTo(200);
        assertThat(metadata.json().propertyNames()).doesNotContain("tls_client_certificate_bound_access_tokens");
        assertThat(metadata.json().path("bearer_methods_supported").valueStream().map(node -> node.asString()))
                .containsExactly("header");
        assertThat(metadata.json().path("resource").asString()).startsWith("http://localhost:" + port);
    }

    private void assertUnauthorized(TestTokens token) {
        Reply reply = api.get(home, token.token());
        assertThat(reply.status()).as(reply.toString()).isEqualTo(401);
        assertThat(reply.body()).isEmpty();
        assertThat(reply.header("WWW-Authenticate")).get().asString().startsWith("Bearer").contains("invalid_token");
        assertThat(reply.contentType()).doesNotContain("problem");
    }
}
