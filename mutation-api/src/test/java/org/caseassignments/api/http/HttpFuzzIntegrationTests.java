package org.caseassignments.api.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.function.Supplier;

import org.caseassignments.api.requestid.RequestIds;
import org.caseassignments.api.testsupport.Cases;
import org.caseassignments.api.testsupport.ErrorTable;
import org.caseassignments.api.testsupport.KeepAliveHttp;
import org.caseassignments.api.testsupport.RawHttp;
import org.caseassignments.api.testsupport.TestApplication;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;
import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.Rows;
import org.caseassignments.testkit.TestDatabase;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Property-style fuzzing of the running application on a real PostgreSQL: generated valid, mutated
 * and hostile requests (methods, targets, headers, bodies, every query parameter of every operation the
 * OpenAPI document lists, and signed tokens with hostile claims), and for every answer: never a 5xx, every
 * 4xx a problem document with a code the error table of docs/mutation-api.md lists (401 and 403 have empty bodies
 * by design), and no stack trace, SQL or constraint name in any body.
 *
 * <p>Seeded: the seed is printed on failure; rerun with {@code -Dfuzz.seed=<seed>}; the number of
 * tries is {@code -Dfuzz.tries} (default {@value #DEFAULT_TRIES}, a few seconds). The hostile inputs of the waits, the history,
 * the lists and the traces have a fuzz of their own, {@link HostileParameters}.
 *
 * <p>The hostile values include what PostgreSQL itself would refuse (a NUL or another control character
 * in a text field, numbers beyond the field's integer type, dates outside PostgreSQL's range), so a gap in
 * the request validation shows up here as a 500.
 */
@RealDatabaseTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, kafka = false, with = TestApplication.class,
        properties = {
                // every wait the fuzz asks for is either this short or refused at once: it never waits long
                "api.assignment.max-wait=10ms",
                // thousands of refused requests: their routine warnings would drown the test's output
                "logging.level.org.springframework.web.servlet.PageNotFound=error",
                "logging.level.org.springframework.boot.webmvc.autoconfigure.WelcomePageHandlerMapping=error"})
class HttpFuzzIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    private static final int DEFAULT_TRIES = 600;
    private static final int HOSTILE_TRIES = 20_000;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final List<String> LEAKS = List.of("Exception", "\tat ", "org.postgresql", "org.springframework",
            "SQLState", "SQL state", "violates", "constraint", "duplicate key", "_fkey", "_pkey", "<html", "Tomcat");

    @LocalServerPort
    int port;

    private final JdbcTemplate jdbc = DB.jdbc();

    @Test
    void shouldAnswerEveryGeneratedRequestWithoutAServerErrorOrALeak() throws IOException {
        long seed = Long.getLong("fuzz.seed", new Random().nextLong());
        int tries = Integer.getInteger("fuzz.tries", DEFAULT_TRIES);
        Set<String> codes = ErrorTable.statusByCode().keySet();
        assertThat(codes).contains("NOT_FOUND", "VALIDATION_FAILED");
        RawHttp http = new RawHttp(port);
        Generator generator = new Generator(new Random(seed), fixtures(), operations(http));

        for (int i = 0; i < tries; i++) {
            Generated request = generator.next();
            String context = "seed " + seed + " (rerun with -Dfuzz.seed=" + seed + "), try " + i + ": " + request;
            RawHttp.Answer answer = http.send(request.head(), request.body());
            check(answer, request, codes, context);
        }
    }

    /**
     * The acceptance of the read-your-writes, history, paging and tracing inputs: {@value #HOSTILE_TRIES} requests
     * ({@code -Dfuzz.hostile-tries}) over keep-alive connections, and for every answer: no 5xx, a 2xx, an empty 401 or
     * 403, or a problem document whose code the error table lists with the answer's status. Invariants only, so the
     * inputs' rules may change (a new code, another status for a code) with the table and the fuzz stays true.
     */
    @Test
    void shouldAnswerEveryHostileWaitHistoryPageAndTraceInputWithADocumentedStatusOrProblem() {
        long seed = Long.getLong("fuzz.seed", new Random().nextLong());
        int tries = Integer.getInteger("fuzz.hostile-tries", HOSTILE_TRIES);
        Map<String, Integer> table = ErrorTable.statusByCode();
        HostileParameters generator = new HostileParameters(new Random(seed), hostileFixtures());
        System.out.println("hostile-input fuzz: seed " + seed + " (rerun with -Dfuzz.seed=" + seed + "), " + tries + " tries");
        KeepAliveHttp http = KeepAliveHttp.open(port);
        try {
            for (int i = 0; i < tries; i++) {
                Generated request = generator.next();
                String at = "seed " + seed + " (rerun with -Dfuzz.seed=" + seed + "), try " + i + ": " + request;
                RawHttp.Answer answer;
                try {
                    answer = http.send(request.head(), request.body());
                } catch (IOException e) {
                    throw new AssertionError(at + "\n→ no answer", e);
                }
                check(answer, request, table.keySet(), at);
                checkDocumented(answer, table, at + "\n→ " + answer);
                if (answer.closes()) {
                    http.close();
                    http = KeepAliveHttp.open(port);
                }
            }
        } finally {
            http.close();
        }
    }

    /** A 2xx; an empty 401 or 403; or a problem whose code the error table lists with this status. */
    private static void checkDocumented(RawHttp.Answer answer, Map<String, Integer> table, String at) {
        int status = answer.status();
        if (status >= 200 && status < 300) {
            return;
        }
        if (status == 401 || status == 403) {
            assertThat(answer.body()).as(at).isEmpty();
            return;
        }
        assertThat(table.values()).as(at).contains(status);
        assertThat(table.get(JSON.readTree(answer.body()).path("code").asString())).as(at).isEqualTo(status);
    }

    /**
     * A case of the tokens' jurisdiction with three placements and three kinship options (so a page of one has a
     * next one) and history, another jurisdiction's case, foster homes of both (the placements in one of the tokens'),
     * and the next-page cursors the service answers for their lists.
     */
    private HostileParameters.Fixtures hostileFixtures() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        new AssignmentWriter(jdbc).apply(List.of(AssignmentUpdate.changed(caseId, "w-1", "s-2", 2)
                .withJurisdiction(Cases.JURISDICTION)));
        UUID foreign = Cases.assignedTo(jdbc, "w-1", "s-1", 1, "texas");
        UUID home = Rows.fosterHome().capacity(null).insert(jdbc);
        UUID foreignHome = Rows.fosterHome().jurisdiction("texas").insert(jdbc);
        List<UUID> placements = new ArrayList<>();
        List<UUID> options = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Rows.fosterHome().insert(jdbc);
            placements.add(Rows.placement(caseId).worker("w-1").supervisor("s-2").revision(2).in(home).insert(jdbc));
            options.add(Rows.kinshipOption(caseId).worker("w-1").supervisor("s-2").revision(2).insert(jdbc));
            Rows.placement(foreign).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        }
        RawHttp http = new RawHttp(port);
        String admin = TestTokens.admin("a-1").token();
        List<String> cursors = new ArrayList<>();
        for (String list : List.of("/cases/" + caseId + "/placements", "/cases/" + caseId + "/kinship-options",
                "/cases/" + caseId + "/assignment/history", "/foster-homes", "/foster-homes/" + home + "/placements")) {
            RawHttp.Answer page = http.send("GET " + list + "?limit=1 HTTP/1.1\r\nAuthorization: Bearer " + admin);
            String next = page.status() == 200 ? JSON.readTree(page.body()).path("next_cursor").asString("") : "";
            if (!next.isEmpty()) {
                cursors.add(next);
            }
        }
        assertThat(cursors).as("the lists answer next-page cursors to draw from").isNotEmpty();
        return new HostileParameters.Fixtures(caseId, foreign, home, foreignHome, placements, options, cursors);
    }

    private static void check(RawHttp.Answer answer, Generated request, Set<String> codes, String context) {
        String at = context + "\n→ " + answer;
        assertThat(answer.status()).as(at).isLessThan(500);
        boolean operational = request.target().startsWith("/actuator/") || request.target().startsWith("/v3/");
        if (answer.status() >= 400 || !operational) {
            // metrics legitimately name exception classes; only answers to callers must not
            assertNoLeak(answer, at);
        }
        if (answer.status() < 400 || answer.status() == 401 || answer.status() == 403) {
            return;
        }
        checkProblem(answer, request, codes, at);
    }

    private static void assertNoLeak(RawHttp.Answer answer, String at) {
        for (String leak : LEAKS) {
            assertThat(answer.body()).as(at).doesNotContain(leak);
        }
    }

    private static void checkProblem(RawHttp.Answer answer, Generated request, Set<String> codes, String at) {
        assertThat(answer.contentType()).as(at).startsWith("application/problem+json");
        assertThat(answer.header(RequestIds.HEADER)).as(at).isPresent();
        if (request.method().equals("HEAD")) {
            return;
        }
        JsonNode problem = JSON.readTree(answer.body());
        assertThat(codes).as(at).contains(problem.path("code").asString());
        assertThat(problem.path("status").asInt()).as(at).isEqualTo(answer.status());
        assertThat(problem.path("request_id").asString()).as(at).isEqualTo(answer.header(RequestIds.HEADER).orElseThrow());
    }

    private Fixtures fixtures() {
        UUID caseId = Cases.assignedTo(jdbc, "w-1", "s-1", 1);
        UUID placement = Rows.placement(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        UUID option = Rows.kinshipOption(caseId).worker("w-1").supervisor("s-1").revision(1).insert(jdbc);
        UUID home = Rows.fosterHome().insert(jdbc);
        return new Fixtures(caseId, placement, option, home);
    }

    record Fixtures(UUID caseId, UUID placement, UUID option, UUID home) {
    }

    /** One operation of the OpenAPI document: its method, path template and query parameters. */
    record Operation(String method, String path, List<String> queryParameters) {
    }

    /**
     * Every operation the service documents, read from its own OpenAPI document, so an operation or a
     * query parameter added later is fuzzed without touching this test.
     */
    private static List<Operation> operations(RawHttp http) {
        RawHttp.Answer answer = http.send("GET /v3/api-docs HTTP/1.1");
        assertThat(answer.status()).as(answer.toString()).isEqualTo(200);
        List<Operation> operations = new ArrayList<>();
        JSON.readTree(answer.body()).path("paths").properties().forEach(path ->
                path.getValue().properties().forEach(operation -> {
                    List<String> query = new ArrayList<>();
                    operation.getValue().path("parameters").forEach(parameter -> {
                        if (parameter.path("in").asString().equals("query")) {
                            query.add(parameter.path("name").asString());
                        }
                    });
                    operations.add(new Operation(operation.getKey().toUpperCase(Locale.ROOT), path.getKey(), query));
                }));
        assertThat(operations).as("the audit trail's filters are documented query parameters")
                .anySatisfy(operation -> assertThat(operation.queryParameters()).contains("from", "until", "cursor"));
        return operations;
    }

    record Generated(String method, String target, List<String> headers, byte[] body) {

        String head() {
            return method + " " + target + " HTTP/1.1" + (headers.isEmpty() ? "" : "\r\n" + String.join("\r\n", headers));
        }

        @Override
        public String toString() {
            return head().replace("\r\n", " | ") + " || " + new String(body, StandardCharsets.UTF_8);
        }
    }

    /** Draws requests: mostly well formed with one or two mutations, some hostile throughout. */
    static final class Generator {

        private static final String[] METHODS = {"GET", "GET", "HEAD", "POST", "POST", "PATCH", "PATCH", "DELETE",
                "PUT", "OPTIONS", "FOO", "TRACE", "get", "M-SEARCH"};
        private static final String[] HOSTILE_SEGMENTS = {"%20", "..", "..;", "%2e%2e", "%2E%2E%2F", "%2f", "%00",
                "%ff%fe", "%", "%zz", ";x=1", "a b", "%0d%0a", "ü", "%C3%BC", "x".repeat(300), "{id}", "*", "~",
                "'%20OR%201=1", "-1", "00000000-0000-0000-0000-000000000000", "ZZZZZZZZ-0000-0000-0000-000000000000"};
        private static final String[] HOSTILE_STRINGS = {"", " ", "\\t", "a\\\"b", "\\u00e9", "\\ud83d\\ude00",
                "<script>alert(1)</script>", "'; DROP TABLE x; --", "x".repeat(300), "${jndi:ldap://x}",
                "%s%n", "\\\\", "\\u202e", "\\ud800", "\\u0000", "a\\u0000b", "\\u0001", "\\u007f", "a\\nb"};
        private static final String[] HOSTILE_VALUES = {"null", "true", "false", "0", "-1", "1.5", "1e3", "[]", "{}",
                "[1,2]", "{\"a\":{}}", "\"\"", "\"2026-02-30\"", "\"2026-13-01\"", "\"2020-01-01T00:00:00Z\"",
                "\"ACTIVE\"", "\"active\"", "\"ENDED\"", "2147483647", "\"" + UUID.randomUUID() + "\"",
                "99999999999", "-2147483649", "1e400", "\"0000-12-31\"", "\"+10000-01-01\"", "\"-0001-01-01\""};
        private static final String[] FIELDS = {"name", "license_number", "admin_unit", "capacity", "license_status",
                "status", "foster_home_id", "start_date", "end_date", "relative_name", "relationship", "approved",
                "id", "row_version", "case_id", "assigned_worker_sub", "unknown", ""};
        private static final String[] CONTENT_TYPES = {"application/json", "application/json", "application/merge-patch+json",
                "application/json; charset=utf-8", "text/plain", "application/xml", "application/x-www-form-urlencoded",
                "multipart/form-data; boundary=x", "application/json; charset=latin1", "garbage", "*/*", ""};
        private static final String[] ACCEPTS = {"application/json", "*/*", "application/problem+json", "text/html",
                "application/xml", "garbage/", "application/json;q=0", ""};

        /** Query values: well formed, and what the database or the parsers cannot take (URL-encoded). */
        private static final String[] QUERY_VALUES = {"1", "0", "-1", "100", "501", "2147483648", "1e3", "", "%00",
                "a%00b", "%ED%A0%80", "%ff", "%2B", "x".repeat(300), "%0d%0a", "2026-11-30T00:00:00Z",
                "2026-11-30T00:00:00%2B18:00", "2026-11-30T00:00:00-18:01", "2026-11-30", "%2B300000-01-01T00:00:00Z",
                "-5000-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
                "%2B999999999-12-31T23:59:59Z", "-999999999-01-01T00:00:00Z", cursor(Long.MIN_VALUE, 1),
                cursor(Long.MAX_VALUE, Long.MAX_VALUE), cursor(0, -1), cursor(-62_135_596_800_000_001L, 1), "Li4",
                "LTkyMjMzNzIwMzY4NTQ3NzU4MDg6MQ", "%2F..%2F", UUID.randomUUID().toString(), "ZZZZZZZZ-0000-0000-0000-000000000000",
                "ACTIVE", "PROPOSED", "active", "unit-1"};
        /** Claim values, as Java values a token can carry: text (the hostile strings), lists, numbers, objects. */
        private static final String[] CLAIMS = {"sub", "roles", "admin_units", "jurisdiction"};

        private final Random random;
        private final Fixtures fixtures;
        private final List<Operation> operations;
        private final String admin = TestTokens.admin("a-1").token();
        private final String caseworker = TestTokens.caseworker("w-1").token();
        private final String stranger = TestTokens.caseworker("w-9").token();
        private final String auditor = TestTokens.subject("aud-1").roles("auditor").token();

        Generator(Random random, Fixtures fixtures, List<Operation> operations) {
            this.random = random;
            this.fixtures = fixtures;
            this.operations = operations;
        }

        Generated next() {
            boolean documented = random.nextInt(3) == 0;
            Operation operation = operation();
            String method = documented && random.nextInt(8) > 0 ? operation.method() : pick(METHODS);
            String target = documented ? documentedTarget(operation) : target();
            List<String> headers = new ArrayList<>();
            // a documented operation mostly gets a token its rules allow, so the request reaches the query and the write
            String allowed = target.startsWith("/audit") ? auditor : admin;
            String token = random.nextInt(4) == 0 ? hostileClaimsToken(allowed == auditor ? "auditor" : "admin")
                    : documented && random.nextBoolean() ? allowed
                    : pick(new String[] {admin, admin, admin, caseworker, stranger, auditor, null, "not.a.jwt", ""});
            if (token != null) {
                headers.add("Authorization: Bearer " + token);
            }
            maybe(0.4, () -> headers.add("If-Match: " + etagHeader()));
            maybe(0.2, () -> headers.add("If-None-Match: " + etagHeader()));
            maybe(0.3, () -> headers.add("Accept: " + pick(ACCEPTS)));
            maybe(0.2, () -> headers.add("X-Request-Id: " + pick(new String[] {"req-1", "", "a b", "x".repeat(80), "ü", "A.b_c"})));
            maybe(0.05, () -> headers.add("X-Padding: " + "p".repeat(random.nextInt(12_000))));
            maybe(0.05, () -> headers.add(pick(new String[] {"Bad Header: x", ": empty", "X-Ctl: a\u0001b", "X-Ü: 1",
                    "Host: other", "Range: bytes=0-1", "Cookie: JSESSIONID=1"})));
            byte[] body = new byte[0];
            if (!method.equals("GET") && !method.equals("HEAD") || random.nextInt(10) == 0) {
                if (random.nextInt(6) > 0) {
                    body = (documented && method.equals("POST") && random.nextBoolean() ? validCreate(target) : body())
                            .getBytes(StandardCharsets.UTF_8);
                    headers.add("Content-Type: " + pick(CONTENT_TYPES));
                }
            }
            return new Generated(method, target, headers, body);
        }

        private String target() {
            List<Supplier<String>> targets = List.of(
                    () -> "/placements/" + id(fixtures.placement()),
                    () -> "/kinship-options/" + id(fixtures.option()),
                    () -> "/foster-homes/" + id(fixtures.home()),
                    () -> "/foster-homes",
                    () -> "/foster-homes?" + pick(new String[] {"license_status=ACTIVE", "license_status=LICENSED",
                            "admin_unit=unit-1", "admin_unit=%00", "admin_unit=" + "u".repeat(300), "min_room=1",
                            "min_room=0", "min_room=2147483648", "license_status=ACTIVE&min_room=1&limit=1",
                            "cursor=" + "A".repeat(300)}),
                    () -> "/foster-homes/" + id(fixtures.home()) + "/placements",
                    () -> "/foster-homes/" + id(fixtures.home()) + "/placements?" + pick(new String[] {"status=ACTIVE",
                            "status=active", "status=", "status=%00", "limit=1", "limit=0", "cursor=%00"}),
                    () -> "/cases/" + id(fixtures.caseId()) + "/placements",
                    () -> "/cases/" + id(fixtures.caseId()) + "/kinship-options",
                    () -> "/cases/" + id(fixtures.caseId()) + "/assignment",
                    () -> "/cases/" + id(fixtures.caseId()) + "/assignment?" + pick(new String[] {"min_revision=",
                            "min_revision=0&wait=PT0.01S", "min_revision=9223372036854775807&wait=PT0S",
                            "min_revision=1e3", "wait=P1D", "as_of=", "as_of=%2B999999999-12-31T23:59:59Z",
                            "as_of=2026-01-01T00:00:00%2B01:00", "as_of_revision=-9223372036854775808",
                            "as_of_revision=0&as_of=x"}),
                    () -> "/cases/" + id(fixtures.caseId()) + "/assignment/history?" + pick(new String[] {"limit=1",
                            "limit=-1", "limit=99999999999", "cursor=", "cursor=%00", "cursor=" + "A".repeat(300)}),
                    () -> "/" + pick(HOSTILE_SEGMENTS),
                    () -> "/placements/" + id(fixtures.placement()) + "/" + pick(HOSTILE_SEGMENTS),
                    () -> "/error",
                    () -> "/v3/api-docs",
                    () -> pick(new String[] {"/livez", "/readyz"}),
                    () -> "/actuator/" + pick(new String[] {"health", "env", "beans", "heapdump", "metrics", "prometheus"}));
            String target = targets.get(random.nextInt(targets.size())).get();
            // The actuator is on the management port (not fuzzed here); on this port its paths are 404s like any other
            if (random.nextInt(8) == 0) {
                target += pick(new String[] {"?x=1", "?x=%", "?" + "q".repeat(500), "#frag", "/", "//", "?a=%00"});
            }
            return target;
        }

        /** Half the draws from the operations with query parameters, whose values are fuzzed here alone. */
        private Operation operation() {
            List<Operation> withQuery = operations.stream().filter(operation -> !operation.queryParameters().isEmpty()).toList();
            List<Operation> from = random.nextBoolean() && !withQuery.isEmpty() ? withQuery : operations;
            return from.get(random.nextInt(from.size()));
        }

        /** A body the create at {@code target} accepts (a new license number each time), so it reaches its write. */
        private String validCreate(String target) {
            if (target.startsWith("/foster-homes")) {
                return "{\"name\":\"Oak\",\"license_number\":\"F-" + random.nextLong() + "\",\"admin_unit\":\"unit-1\"}";
            }
            return target.contains("/kinship-options") ? "{\"relative_name\":\"Ann\",\"relationship\":\"aunt\"}" : "{}";
        }

        /** A documented operation's path with its variables filled in, and some of its query parameters. */
        private String documentedTarget(Operation operation) {
            String path = operation.path()
                    .replace("{caseId}", id(fixtures.caseId()))
                    .replace("{id}", id(operation.path().startsWith("/placements") ? fixtures.placement()
                            : operation.path().startsWith("/kinship-options") ? fixtures.option() : fixtures.home()));
            List<String> query = new ArrayList<>();
            for (String parameter : operation.queryParameters()) {
                if (random.nextBoolean()) {
                    query.add(parameter + "=" + pick(QUERY_VALUES));
                }
            }
            maybe(0.1, () -> query.add(pick(new String[] {"unknown=1", "limit=1&limit=2", "from", "=x", "&", "%zz=1"})));
            return query.isEmpty() ? path : path + "?" + String.join("&", query);
        }

        /**
         * A token signed by the trusted key whose claims are otherwise an auditor's or an admin's, with one
         * or two of them replaced by a hostile value: control characters, NUL, unpaired surrogates and
         * overlong text in {@code sub} or as an element of {@code roles} and {@code admin_units}, wrong types.
         */
        private String hostileClaimsToken(String allowedRole) {
            TestTokens token = TestTokens.subject("h-1").roles(allowedRole).adminUnits("unit-1");
            int replaced = 1 + random.nextInt(2);
            for (int i = 0; i < replaced; i++) {
                String claim = pick(CLAIMS);
                Object value = switch (random.nextInt(5)) {
                    case 0 -> hostileText();
                    case 1, 2 -> List.of(allowedRole, hostileText());
                    case 3 -> List.of(hostileText());
                    default -> pick(new Object[] {42, List.of(1), java.util.Map.of("a", "b"), List.of(), true, "georgia"});
                };
                token.claim(claim, value);
            }
            return token.token();
        }

        private String hostileText() {
            return JSON.readValue("\"" + pick(HOSTILE_STRINGS) + "\"", String.class);
        }

        private static String cursor(long micros, long id) {
            return java.util.Base64.getUrlEncoder().withoutPadding()
                    .encodeToString((micros + ":" + id).getBytes(StandardCharsets.US_ASCII));
        }

        private String id(UUID existing) {
            int roll = random.nextInt(10);
            return roll < 6 ? existing.toString() : roll < 8 ? UUID.randomUUID().toString() : pick(HOSTILE_SEGMENTS);
        }

        private String etagHeader() {
            return pick(new String[] {TestETags.placement(fixtures.placement(), 1), TestETags.kinshipOption(fixtures.option(), 1),
                    TestETags.fosterHome(fixtures.home(), 1), TestETags.fosterHome(fixtures.home(), 1 + random.nextInt(5)),
                    "*", "\"1\"", "W/\"1\"", "1", "\"", "\"a\", \"b\"", "", " , ", "\"" + "e".repeat(500) + "\""});
        }

        private String body() {
            int roll = random.nextInt(10);
            if (roll == 0) {
                return pick(new String[] {"", "{", "}", "[]", "null", "\"x\"", "{\"a\":", "[".repeat(2000),
                        "{\"a\":".repeat(500), "\u00ff\u00fe", "{}{}", "{} x", "{\"name\":\"x\",\"name\":\"y\"}"});
            }
            StringBuilder json = new StringBuilder("{");
            int fields = random.nextInt(4);
            for (int i = 0; i < fields; i++) {
                json.append(i == 0 ? "" : ",").append('"').append(pick(FIELDS)).append("\":").append(value());
            }
            String body = json.append('}').toString();
            if (roll == 1 && !body.isEmpty()) {
                int at = random.nextInt(body.length());
                body = body.substring(0, at) + pick(new String[] {"", "\"", ",", "}", "{", ":"}) + body.substring(at);
            }
            return body;
        }

        private String value() {
            return switch (random.nextInt(3)) {
                case 0 -> "\"" + pick(HOSTILE_STRINGS) + "\"";
                case 1 -> pick(HOSTILE_VALUES);
                default -> "\"" + pick(new String[] {"Oak", "L-" + random.nextInt(1_000_000), "unit-1", "aunt",
                        "PROPOSED", "ACTIVE", "ENDED", "2026-05-01", "APPROVED", "REVOKED"}) + "\"";
            };
        }

        private void maybe(double probability, Runnable action) {
            if (random.nextDouble() < probability) {
                action.run();
            }
        }

        private <T> T pick(T[] choices) {
            return choices[random.nextInt(choices.length)];
        }
    }

    static {
        Locale.setDefault(Locale.ROOT);
    }
}
