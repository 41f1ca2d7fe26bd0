package org.caseassignments.api.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.caseassignments.api.MutationApiApplication;
import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.Backends;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.OpenTransaction;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestApplication;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Two instances of the API on one database: the test's context (which requires the header) and a
 * second one started beside it. Nothing of the guarantee lives in one instance's memory.
 */
@RealDatabaseTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, kafka = false, with = TestApplication.class,
        properties = "api.idempotency.required=true")
class IdempotencyAcrossInstancesIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    private static ConfigurableApplicationContext other;
    private static ApiClient otherApi;

    @BeforeAll
    static void startTheOtherInstance() {
        other = new SpringApplicationBuilder(MutationApiApplication.class).run(
                "--spring.datasource.url=" + DB.jdbcUrl(), "--spring.datasource.username=" + DB.username(),
                "--spring.datasource.password=" + DB.password(), "--spring.datasource.hikari.maximum-pool-size=4",
                "--auth.issuer=" + TestTokens.ISSUER, "--auth.audience=" + TestTokens.AUDIENCE,
                "--auth.public-key-location=file:" + TestTokens.publicKeyPem(), "--auth.jwk-set-uri=",
                "--api.etag-secret=" + TestETags.SECRET, "--server.port=0", "--management.server.port=0",
                "--policy.reload-interval=0s",
                "--spring.main.banner-mode=off");
        otherApi = new ApiClient(Integer.parseInt(other.getEnvironment().getProperty("local.server.port")));
    }

    @AfterAll
    static void stopTheOtherInstance() {
        if (other != null) {
            other.close();
        }
    }

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final Backends backends = new Backends(jdbc);
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldReplayOnTheOtherInstanceWhatOneInstanceCreated() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        String key = UUID.randomUUID().toString();

        Reply created = api.send(kinshipCreate(caseId, key));
        Reply replayed = otherApi.send(kinshipCreate(caseId, key));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(replayed.status()).as(replayed.toString()).isEqualTo(201);
        assertThat(replayed.body()).isEqualTo(created.body());
        assertThat(replayed.header("Location")).isEqualTo(created.header("Location"));
        assertThat(jdbc.queryForObject("SELECT count(*) FROM kinship_options WHERE case_id = ?", Integer.class, caseId))
                .isEqualTo(1);
    }

    @Test
    void shouldAnswer409InUseOnOneInstanceWhileTheOtherHoldsTheKeyInFlight() throws Exception {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID home = Rows.fosterHome().insert(jdbc);
        String key = UUID.randomUUID().toString();
        String body = "{\"foster_home_id\": \"" + home + "\"}";

        Reply first;
        Reply second;
        try (OpenTransaction homeLock = OpenTransaction.begin(DB.dataSource(),
                jdbc -> jdbc.queryForList("SELECT id FROM foster_homes WHERE id = ? FOR UPDATE", home)).awaitWork()) {
            CompletableFuture<Reply> inFlight = api.sendAsync(placementCreate(caseId, key, body));
            backends.awaitBlockedBy(homeLock.pid());

            second = otherApi.send(placementCreate(caseId, key, body));

            homeLock.commit();
            first = inFlight.get(30, TimeUnit.SECONDS);
        }

        assertThat(first.status()).as(first.toString()).isEqualTo(201);
        assertThat(second.status()).as(second.toString()).isEqualTo(409);
        assertThat(second.code()).isEqualTo("IDEMPOTENCY_KEY_IN_USE");
        assertThat(jdbc.queryForObject("SELECT count(*) FROM placements WHERE case_id = ?", Integer.class, caseId))
                .isEqualTo(1);
    }

    @Test
    void shouldRefuse400KeyRequiredForACreateWithoutTheHeaderWhenTheSettingRequiresIt() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);

        Reply refused = api.post("/cases/" + caseId + "/kinship-options", TestTokens.caseworker("w-1").token(),
                "{\"relative_name\": \"Ada\", \"relationship\": \"aunt\"}");
        Reply optionalElsewhere = otherApi.post("/cases/" + caseId + "/kinship-options",
                TestTokens.caseworker("w-1").token(), "{\"relative_name\": \"Ada\", \"relationship\": \"aunt\"}");

        assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        assertThat(refused.code()).isEqualTo("IDEMPOTENCY_KEY_REQUIRED");
        assertThat(optionalElsewhere.status()).as("optional by default").isEqualTo(201);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM kinship_options WHERE case_id = ?", Integer.class, caseId))
                .isEqualTo(1);
    }

    private static ApiClient.Request kinshipCreate(UUID caseId, String key) {
        return ApiClient.request("POST", "/cases/" + caseId + "/kinship-options")
                .token(TestTokens.caseworker("w-1").token()).header("Idempotency-Key", key)
                .json("{\"relative_name\": \"Ada\", \"relationship\": \"aunt\"}");
    }

    private static ApiClient.Request placementCreate(UUID caseId, String key, String body) {
        return ApiClient.request("POST", "/cases/" + caseId + "/placements")
                .token(TestTokens.caseworker("w-1").token()).header("Idempotency-Key", key).json(body);
    }
}
