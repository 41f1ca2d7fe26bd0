package org.caseassignments.api.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.caseassignments.api.testsupport.ApiClient;
import org.caseassignments.api.testsupport.ApiIntegrationTest;
import org.caseassignments.api.testsupport.Backends;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.OpenTransaction;
import org.caseassignments.api.testsupport.Race;
import org.caseassignments.api.testsupport.Reply;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The foster-home occupancy and licence gate over HTTP (decision 22), and its races, each forced: the
 * competing writer holds its lock in an {@link OpenTransaction}, the requests are shown waiting by
 * {@code pg_stat_activity} / {@code pg_blocking_pids}, and only then does the competitor commit.
 */
@ApiIntegrationTest
class HomeOccupancyIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        // eight activations inside their transactions at once, each on its own connection
        registry.add("spring.datasource.hikari.maximum-pool-size", () -> "12");
    }

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();
    private final Backends backends = new Backends(jdbc);
    private final String admin = TestTokens.admin("admin-1").token();
    private ApiClient api;

    @BeforeEach
    void client() {
        api = new ApiClient(port);
    }

    @Test
    void shouldLetExactlyOneOfEightConcurrentActivationsIntoACapacityOneHomeSucceed() throws Exception {
        UUID home = Rows.fosterHome().capacity(1).insert(jdbc);
        List<UUID> placements = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            placements.add(proposedIn(home));
        }

        List<CompletableFuture<Reply>> replies;
        try (OpenTransaction homeUpdate = holdHomes(home)) {
            replies = placements.stream().map(placement -> api.sendAsync(activation(placement))).toList();
            backends.awaitWaitingForLocks(8);
            assertThat(backends.blockedBy(homeUpdate.pid())).isNotEmpty();
            homeUpdate.commit();
        }

        Map<String, Long> answers = answers(replies);
        assertThat(answers).as(answers.toString()).containsOnly(Map.entry("200", 1L), Map.entry("409 HOME_AT_CAPACITY", 7L));
        assertThat(activeIn(home)).isEqualTo(1);
    }

    @Test
    void shouldRefuseAnActivationThatWaitedForACapacityDecrease() {
        UUID home = Rows.fosterHome().capacity(2).insert(jdbc);
        activeIn(home, 1);
        UUID placement = proposedIn(home);

        Reply raced;
        try (OpenTransaction decrease = changeHome(home, "capacity = 1")) {
            raced = Race.commitWhileItWaits(api, backends, decrease, activation(placement));
        }

        assertProblem(raced, "HOME_AT_CAPACITY");
        assertThat(raced.body()).contains(home.toString()).contains("capacity 1");
        assertThat(activeIn(home)).isEqualTo(1);
    }

    @Test
    void shouldRefuseACapacityDecreaseThatWaitedForAnActivation() {
        UUID home = Rows.fosterHome().capacity(2).insert(jdbc);
        activeIn(home, 1);
        UUID placement = proposedIn(home);

        Reply raced;
        try (OpenTransaction activation = activate(placement)) {
            // the tags of the home before and after the held activation, so that the write reaches the gate, not a 412
            raced = Race.commitWhileItWaits(api, backends, activation, homePatch(home, "{\"capacity\": 1}", 1, 2));
        }

        assertProblem(raced, "CAPACITY_BELOW_OCCUPANCY");
        assertThat(jdbc.queryForObject("SELECT capacity FROM foster_homes WHERE id = ?", Integer.class, home)).isEqualTo(2);
        assertThat(activeIn(home)).isEqualTo(2);
    }

    @Test
    void shouldRefuseAnActivationThatWaitedForALicenceRevocation() {
        UUID home = Rows.fosterHome().capacity(3).insert(jdbc);
        UUID placement = proposedIn(home);

        Reply raced;
        try (OpenTransaction revocation = changeHome(home, "license_status = 'REVOKED'")) {
            raced = Race.commitWhileItWaits(api, backends, revocation, activation(placement));
        }

        assertProblem(raced, "HOME_NOT_LICENSED");
        assertThat(raced.body()).contains("REVOKED");
        assertThat(activeIn(home)).isZero();
    }

    /** Decision 22: a revocation is never refused; its answer reports the children still placed in the home. */
    @Test
    void shouldRevokeALicenceThatWaitedForAnActivationAndReportTheActivePlacements() {
        UUID home = Rows.fosterHome().capacity(3).insert(jdbc);
        UUID placement = proposedIn(home);
        UUID proposedMeanwhile = proposedIn(home);

        Reply revoked;
        try (OpenTransaction activation = activate(placement)) {
            revoked = Race.commitWhileItWaits(api, backends, activation,
                    homePatch(home, "{\"license_status\": \"REVOKED\"}", 0, 1));
        }

        assertThat(revoked.status()).as(revoked.toString()).isEqualTo(200);
        assertThat(revoked.json().path("license_status").asText()).isEqualTo("REVOKED");
        assertThat(revoked.json().path("active_placements").asInt()).isEqualTo(1);
        assertThat(auditedOccupancy(home)).isEqualTo(1);
        assertProblem(api.send(activation(proposedMeanwhile)), "HOME_NOT_LICENSED");
    }

    @Test
    void shouldRefuseBothOfTwoPlacementsSwappingFullHomesWithoutADeadlock() {
        Swap swap = swapBetweenHomesOfCapacity(1);

        assertThat(swap.answers()).as(swap.answers().toString()).containsOnly(Map.entry("409 HOME_AT_CAPACITY", 2L));
        assertThat(homeOf(swap.inFirst())).isEqualTo(swap.first());
        assertThat(homeOf(swap.inSecond())).isEqualTo(swap.second());
    }

    @Test
    void shouldMoveBothOfTwoPlacementsSwappingHomesWithRoomWithoutADeadlock() {
        Swap swap = swapBetweenHomesOfCapacity(2);

        assertThat(swap.answers()).as(swap.answers().toString()).containsOnly(Map.entry("200", 2L));
        assertThat(homeOf(swap.inFirst())).isEqualTo(swap.second());
        assertThat(homeOf(swap.inSecond())).isEqualTo(swap.first());
        assertThat(activeIn(swap.first())).isEqualTo(1);
        assertThat(activeIn(swap.second())).isEqualTo(1);
    }

    /**
     * The lock order, first step: the projector holds the case's projection row (its upsert, uncommitted); an
     * activation of the case's placement waits for it at the case, before it holds the placement or the home.
     */
    @Test
    void shouldMakeAnActivationWaitAtTheCaseWhileTheProjectorHoldsItHoldingNoHome() throws Exception {
        UUID home = Rows.fosterHome().capacity(1).insert(jdbc);
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).in(home).insert(jdbc);

        Reply raced;
        try (OpenTransaction projector = reassign(caseId, 2).awaitWork()) {
            CompletableFuture<Reply> reply = api.sendAsync(activation(placement));
            backends.awaitBlockedBy(projector.pid());
            assertThat(jdbc.queryForList("SELECT id FROM foster_homes WHERE id = ? FOR UPDATE NOWAIT", home))
                    .as("the waiting activation holds no lock on the home").hasSize(1);
            projector.commit();
            raced = reply.get(30, TimeUnit.SECONDS);
        }

        assertProblem(raced, "CONCURRENT_MODIFICATION");
        String etag = api.get("/placements/" + placement, admin).etag();
        assertThat(api.patch("/placements/" + placement, admin, etag, "{\"status\": \"ACTIVE\"}").status()).isEqualTo(200);
    }

    /**
     * The lock order, last step: an activation holds the case and its placement and waits for the home (another
     * writer holds it); the projector's apply of the same case waits at the case row behind the activation, never
     * holding the placement the activation has; once the home is free both finish, in that order.
     */
    @Test
    void shouldMakeTheProjectorWaitAtTheCaseWhileAnActivationWaitsForTheHome() throws Exception {
        UUID home = Rows.fosterHome().capacity(1).insert(jdbc);
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).in(home).insert(jdbc);

        Reply activated;
        try (OpenTransaction homeUpdate = holdHomes(home)) {
            CompletableFuture<Reply> reply = api.sendAsync(activation(placement));
            backends.awaitBlockedBy(homeUpdate.pid());
            try (OpenTransaction projector = reassign(caseId, 2)) {
                backends.awaitWaitingForLocks(2);
                assertThat(backends.blockedBy(homeUpdate.pid())).as("only the activation waits for the home").hasSize(1);
                homeUpdate.commit();
                activated = reply.get(30, TimeUnit.SECONDS);
                projector.awaitWork().commit();
            }
        }

        assertThat(activated.status()).as(activated.toString()).isEqualTo(200);
        assertThat(jdbc.queryForMap("SELECT status, assigned_worker_sub FROM placements WHERE id = ?", placement))
                .containsEntry("status", "ACTIVE")
                .containsEntry("assigned_worker_sub", "w-2");
    }

    @Test
    void shouldRefuseAPlacementInASuspendedHomeAndAnActivationInAPendingOne() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID suspended = Rows.fosterHome().licenseStatus("SUSPENDED").insert(jdbc);
        UUID pending = Rows.fosterHome().licenseStatus("PENDING").insert(jdbc);

        assertProblem(api.post("/cases/" + caseId + "/placements", admin, "{\"foster_home_id\": \"" + suspended + "\"}"),
                "HOME_NOT_LICENSED");
        Reply proposed = api.post("/cases/" + caseId + "/placements", admin, "{\"foster_home_id\": \"" + pending + "\"}");
        assertThat(proposed.status()).as("a PENDING home may be proposed: " + proposed).isEqualTo(201);
        Reply activation = api.patch("/placements/" + proposed.text("id"), admin, proposed.etag(), "{\"status\": \"ACTIVE\"}");
        assertProblem(activation, "HOME_NOT_LICENSED");
        assertThat(activation.body()).contains("PENDING");
    }

    /** What a request tries with a home whose licence is not ACTIVE. */
    enum Attempt { CREATE, MOVE_PROPOSED, MOVE_ACTIVE, ACTIVATE }

    static Stream<Arguments> closedHomeAttempts() {
        return Stream.of("SUSPENDED", "REVOKED")
                .flatMap(licence -> Stream.of(Attempt.values()).map(attempt -> Arguments.of(licence, attempt)));
    }

    /**
     * Decision 22: no placement is created in, moved to (PROPOSED or ACTIVE) or activated in a SUSPENDED or REVOKED
     * home; the refusal is 409 naming the licence, and nothing of the case's placements is written.
     */
    @ParameterizedTest(name = "{1} into a {0} home")
    @MethodSource("closedHomeAttempts")
    void shouldRefuse409HomeNotLicensedAndWriteNothingWhenAPlacementWouldEnterAClosedHome(String licence, Attempt attempt) {
        UUID closed = Rows.fosterHome().capacity(3).insert(jdbc);
        UUID open = Rows.fosterHome().capacity(3).insert(jdbc);
        UUID placement = switch (attempt) {
            case CREATE -> null;
            case MOVE_PROPOSED -> proposedIn(open);
            case MOVE_ACTIVE -> activeIn(open, 1).get(0);
            case ACTIVATE -> proposedIn(closed); // named while the home was still ACTIVE
        };
        UUID caseId = placement == null ? Cases.assignedTo(jdbc, "w-1", "s-1", 1) : caseOf(placement);
        jdbc.update("UPDATE foster_homes SET license_status = ?, row_version = row_version + 1 WHERE id = ?", licence, closed);
        List<Map<String, Object>> before = placementsOf(caseId);

        Reply refused = api.send(switch (attempt) {
            case CREATE -> ApiClient.request("POST", "/cases/" + caseId + "/placements").token(admin)
                    .json("{\"foster_home_id\": \"" + closed + "\"}");
            case MOVE_PROPOSED, MOVE_ACTIVE -> move(placement, closed);
            case ACTIVATE -> activation(placement);
        });

        assertProblem(refused, "HOME_NOT_LICENSED");
        assertThat(refused.body()).contains(closed.toString()).contains(licence);
        assertThat(placementsOf(caseId)).as("nothing written").isEqualTo(before);
        assertThat(jdbc.queryForObject("SELECT count(*) FROM audit_records WHERE case_id = ? AND outcome = 'WRITTEN'",
                Integer.class, caseId)).isZero();
        assertThat(jdbc.queryForObject("SELECT count(*) FROM placements WHERE foster_home_id = ? AND status = 'ACTIVE'",
                Integer.class, closed)).isZero();
    }

    /**
     * Decision 22: a suspension, like a revocation, is never refused for the children placed in the home; its answer
     * and its audit record report them, and their placements stay ACTIVE (ending one is a casework decision).
     */
    @ParameterizedTest
    @ValueSource(strings = {"SUSPENDED", "REVOKED"})
    void shouldAllowClosingAHomeWithActivePlacementsAndReportThemLeavingThemActive(String licence) {
        UUID home = Rows.fosterHome().capacity(3).insert(jdbc);
        List<UUID> placed = activeIn(home, 2);

        Reply closed = api.send(homePatch(home, "{\"license_status\": \"" + licence + "\"}"));

        assertThat(closed.status()).as(closed.toString()).isEqualTo(200);
        assertThat(closed.json().path("license_status").asText()).isEqualTo(licence);
        assertThat(closed.json().path("active_placements").asInt()).isEqualTo(2);
        assertThat(auditedOccupancy(home)).isEqualTo(2);
        assertThat(jdbc.queryForList("SELECT id FROM placements WHERE foster_home_id = ? AND status = 'ACTIVE'",
                UUID.class, home)).containsExactlyInAnyOrderElementsOf(placed);
    }

    @Test
    void shouldRecordARefusedActivationAndTheOccupancyOfAWrittenOne() {
        UUID home = Rows.fosterHome().capacity(1).insert(jdbc);
        UUID first = proposedIn(home);
        UUID second = proposedIn(home);

        assertThat(api.send(activation(first)).status()).isEqualTo(200);
        assertProblem(api.send(activation(second)), "HOME_AT_CAPACITY");

        assertThat(jdbc.queryForMap("""
                SELECT foster_home_id, home_occupancy FROM audit_records WHERE resource_id = ? AND outcome = 'WRITTEN'
                """, first)).containsEntry("foster_home_id", home).containsEntry("home_occupancy", 1);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> assertThat(refusalsOf("resource_id", second))
                .containsExactly("update HOME_AT_CAPACITY"));
    }

    /** The licence gate's and the capacity decrease's refusals are recorded as the capacity gate's are. */
    @Test
    void shouldRecordTheRefusalsOfTheLicenceGateAndOfACapacityBelowOccupancy() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID suspended = Rows.fosterHome().licenseStatus("SUSPENDED").insert(jdbc);
        UUID inPending = proposedIn(Rows.fosterHome().licenseStatus("PENDING").insert(jdbc));
        UUID full = Rows.fosterHome().capacity(null).insert(jdbc);
        activeIn(full, 2);

        assertProblem(api.post("/cases/" + caseId + "/placements", admin, "{\"foster_home_id\": \"" + suspended + "\"}"),
                "HOME_NOT_LICENSED");
        assertProblem(api.send(activation(inPending)), "HOME_NOT_LICENSED");
        assertProblem(api.send(homePatch(full, "{\"capacity\": 1}")), "CAPACITY_BELOW_OCCUPANCY");

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(refusalsOf("case_id", caseId)).containsExactly("create HOME_NOT_LICENSED");
            assertThat(refusalsOf("resource_id", inPending)).containsExactly("update HOME_NOT_LICENSED");
            assertThat(refusalsOf("resource_id", full)).containsExactly("update CAPACITY_BELOW_OCCUPANCY");
        });
    }

    @Test
    void shouldActivateWithoutLimitInAHomeWithoutCapacityAndRefuseLoweringItBelowOccupancy() {
        UUID home = Rows.fosterHome().capacity(null).insert(jdbc);
        for (int i = 0; i < 3; i++) {
            assertThat(api.send(activation(proposedIn(home))).status()).isEqualTo(200);
        }

        Reply lowered = api.patch("/foster-homes/" + home, admin, TestETags.fosterHome(home, 1, 3), "{\"capacity\": 2}");

        assertProblem(lowered, "CAPACITY_BELOW_OCCUPANCY");
        assertThat(lowered.body()).contains("3 ACTIVE");
        Reply read = api.get("/foster-homes/" + home, admin);
        assertThat(read.json().path("active_placements").asInt()).isEqualTo(3);
        assertThat(read.etag()).isEqualTo(TestETags.fosterHome(home, 1, 3));
    }

    private record Swap(UUID first, UUID second, UUID inFirst, UUID inSecond, Map<String, Long> answers) {
    }

    /**
     * Two homes of this capacity with one ACTIVE placement each, and each placement moved to the other home at
     * once: both moves are sent while another writer holds both homes, released once PostgreSQL shows both waiting.
     */
    private Swap swapBetweenHomesOfCapacity(int capacity) {
        UUID first = Rows.fosterHome().capacity(capacity).insert(jdbc);
        UUID second = Rows.fosterHome().capacity(capacity).insert(jdbc);
        UUID inFirst = activeIn(first, 1).get(0);
        UUID inSecond = activeIn(second, 1).get(0);
        List<CompletableFuture<Reply>> replies;
        try (OpenTransaction homeUpdate = holdHomes(first, second)) {
            replies = List.of(api.sendAsync(move(inFirst, second)), api.sendAsync(move(inSecond, first)));
            backends.awaitWaitingForLocks(2);
            homeUpdate.commit();
        }
        return new Swap(first, second, inFirst, inSecond, answers(replies));
    }

    private ApiClient.Request activation(UUID placement) {
        return ApiClient.request("PATCH", "/placements/" + placement).token(admin)
                .ifMatch(TestETags.placement(placement, versionOf(placement))).json("{\"status\": \"ACTIVE\"}");
    }

    private ApiClient.Request move(UUID placement, UUID home) {
        return ApiClient.request("PATCH", "/placements/" + placement).token(admin)
                .ifMatch(TestETags.placement(placement, versionOf(placement)))
                .json("{\"foster_home_id\": \"" + home + "\"}");
    }

    /** A PATCH of a home at its first version, with the tag of the ACTIVE placements it has now (decision 44). */
    private ApiClient.Request homePatch(UUID home, String json) {
        return homePatch(home, json, activeIn(home));
    }

    /** A PATCH of a home at its first version, naming the tag of each of these counts of ACTIVE placements. */
    private ApiClient.Request homePatch(UUID home, String json, int... activePlacements) {
        return ApiClient.request("PATCH", "/foster-homes/" + home).token(admin)
                .ifMatch(IntStream.of(activePlacements).mapToObj(count -> TestETags.fosterHome(home, 1, count))
                        .collect(Collectors.joining(", ")))
                .json(json);
    }

    /** Another writer's activation of the placement (its trigger holds the home), held until the test commits it. */
    private static OpenTransaction activate(UUID placement) {
        return OpenTransaction.begin(DB.dataSource(), tx -> tx.update(
                "UPDATE placements SET status = 'ACTIVE', row_version = row_version + 1 WHERE id = ?", placement))
                .awaitWork();
    }

    private static void assertProblem(Reply reply, String code) {
        assertThat(reply.status()).as(reply.toString()).isEqualTo(409);
        assertThat(reply.contentType()).startsWith("application/problem+json");
        assertThat(reply.code()).isEqualTo(code);
        assertThat(reply.body()).as("no SQL, trigger or constraint in the answer")
                .doesNotContain("PL/pgSQL", "placements_home", "foster_homes_capacity", "ERROR:");
    }

    private static Map<String, Long> answers(List<CompletableFuture<Reply>> replies) {
        return replies.stream().map(reply -> reply.orTimeout(30, TimeUnit.SECONDS).join())
                .map(reply -> reply.status() == 200 ? "200" : reply.status() + " " + reply.code())
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
    }

    /** A home update's lock on these homes, held until the test commits it. */
    private static OpenTransaction holdHomes(UUID... homes) {
        return OpenTransaction.begin(DB.dataSource(), tx -> {
            for (UUID home : homes) {
                tx.queryForList("SELECT id FROM foster_homes WHERE id = ? FOR NO KEY UPDATE", home);
            }
        }).awaitWork();
    }

    private static OpenTransaction changeHome(UUID home, String assignment) {
        return OpenTransaction.begin(DB.dataSource(), tx -> tx.update(
                "UPDATE foster_homes SET " + assignment + ", row_version = row_version + 1 WHERE id = ?", home))
                .awaitWork();
    }

    /** The projector's apply moving the case to worker w-2, supervisor s-1; may wait, so not awaited here. */
    private static OpenTransaction reassign(UUID caseId, long revision) {
        return OpenTransaction.begin(DB.dataSource(), tx -> new AssignmentWriter(tx)
                .apply(List.of(AssignmentUpdate.changed(caseId, "w-2", "s-1", revision))));
    }

    private UUID proposedIn(UUID home) {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        return Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).in(home).insert(jdbc);
    }

    private List<UUID> activeIn(UUID home, int count) {
        List<UUID> placements = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
            placements.add(Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).in(home).status("ACTIVE")
                    .insert(jdbc));
        }
        return placements;
    }

    private int activeIn(UUID home) {
        return jdbc.queryForObject("SELECT count(*) FROM placements WHERE foster_home_id = ? AND status = 'ACTIVE'",
                Integer.class, home);
    }

    private UUID caseOf(UUID placement) {
        return jdbc.queryForObject("SELECT case_id FROM placements WHERE id = ?", UUID.class, placement);
    }

    private List<Map<String, Object>> placementsOf(UUID caseId) {
        return jdbc.queryForList("""
                SELECT id, status, foster_home_id, row_version, updated_at FROM placements WHERE case_id = ? ORDER BY id
                """, caseId);
    }

    private UUID homeOf(UUID placement) {
        return jdbc.queryForObject("SELECT foster_home_id FROM placements WHERE id = ?", UUID.class, placement);
    }

    private long versionOf(UUID placement) {
        return jdbc.queryForObject("SELECT row_version FROM placements WHERE id = ?", Long.class, placement);
    }

    /** The action and code of each 409 refusal recorded with this id in this column, oldest first. */
    private List<String> refusalsOf(String column, UUID id) {
        return jdbc.queryForList("SELECT action || ' ' || problem_code FROM audit_records WHERE " + column
                + " = ? AND outcome = 'REFUSED' AND status = 409 ORDER BY recorded_at, id", String.class, id);
    }

    private Integer auditedOccupancy(UUID home) {
        return jdbc.queryForObject("""
                SELECT home_occupancy FROM audit_records WHERE resource_id = ? AND outcome = 'WRITTEN'
                 ORDER BY recorded_at DESC, id DESC LIMIT 1""", Integer.class, home);
    }
}
