package org.caseassignments.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.apache.avro.specific.SpecificRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.caseassignments.schemas.events.CaseAssignmentChanged;
import org.caseassignments.schemas.events.CaseCreated;
import org.caseassignments.schemas.topics.CaseTopics;
import org.caseassignments.testkit.OpsDefinitions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Starts the packaged local stack the way {@code ./run} does (same main class, same classpath, after
 * the build) and uses it as a newcomer would: with the printed tokens and plain HTTP.
 */
class LocalStackEndToEndTests {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Map<String, String> TOKENS = new ConcurrentHashMap<>();
    /** What the stack's jobs.env exports for a backfill job: the database, the broker, the Pushgateway (observe mode). */
    private static final Map<String, String> JOBS = new ConcurrentHashMap<>();
    private static final StringBuilder OUTPUT = new StringBuilder();

    /** How long all the runbook commands together may run. */
    private static final java.time.Duration RUNBOOK_LIMIT = java.time.Duration.ofMinutes(10);

    private static Process stack;
    private static String api;
    private static int kafkaPort;
    private static int postgresPort;
    private static int apiManagementPort;
    private static int projectorManagementPort;

    /** What another stack on this machine would hold: the management ports ./run takes by default. */
    private static final List<ServerSocket> HELD_DEFAULTS = new java.util.ArrayList<>();

    @BeforeAll
    static void startTheStackAsTheReadmeDoes() throws Exception {
        for (int port : List.of(9080, 9081)) {
            try {
                HELD_DEFAULTS.add(new ServerSocket(port));
            } catch (IOException alreadyHeld) {
                // another stack holds it already, which is what this test wants
            }
        }
        int apiPort = freePort();
        kafkaPort = freePortWithFreeNext();
        postgresPort = freePort();
        apiManagementPort = freePort();
        projectorManagementPort = freePort();
        api = "http://localhost:" + apiPort;
        String classpath = "local/target/classes:" + Files.readString(ROOT.resolve("local/target/classpath.txt")).trim();
        stack = new ProcessBuilder(List.of(ChildProcess.java(), "-cp", classpath, LocalStack.class.getName(),
                "--fresh", "--data-dir", "local/target/e2e-data", "--observe",
                "--api-port", Integer.toString(apiPort), "--projector-port", Integer.toString(freePort()),
                "--api-management-port", Integer.toString(apiManagementPort),
                "--projector-management-port", Integer.toString(projectorManagementPort),
                "--postgres-port", Integer.toString(postgresPort), "--kafka-port", Integer.toString(kafkaPort)))
                .directory(ROOT.toFile())
                .redirectErrorStream(true)
                .start();
        CountDownLatch ready = new CountDownLatch(1);
        Thread reader = new Thread(() -> readOutput(ready), "local-stack-output");
        reader.setDaemon(true);
        reader.start();
        if (!ready.await(5, TimeUnit.MINUTES)) {
            throw new AssertionError("The local stack never printed '" + LocalStack.READY_LINE + "'. Output:\n" + OUTPUT);
        }
        // As the banner says: source the tokens file (the tokens themselves are printed only with --print-tokens),
        // and for the jobs the jobs file.
        TOKENS.putAll(exports(ROOT.resolve("local/target/e2e-data/tokens.env")));
        JOBS.putAll(exports(ROOT.resolve("local/target/e2e-data/jobs.env")));
    }

    /** The variables of a file of {@code export NAME=value} lines, a value in single quotes or bare, as bash reads them. */
    private static Map<String, String> exports(Path file) throws IOException {
        Map<String, String> variables = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            Matcher export = Pattern.compile("export ([A-Z0-9_]+)=(?:'(.*)'|(.*))").matcher(line);
            if (export.matches()) {
                variables.put(export.group(1), export.group(2) != null ? export.group(2).replace("'\\''", "'") : export.group(3));
            }
        }
        return variables;
    }

    @Test
    void shouldPrintWhereTheTokensAreButNotTheTokensThemselves() {
        assertThat(OUTPUT.toString()).contains("source local/target/e2e-data/tokens.env")
                .doesNotContain("export ");
    }

    @AfterAll
    static void stopTheStack() throws InterruptedException, IOException {
        for (ServerSocket held : HELD_DEFAULTS) {
            held.close();
        }
        if (stack != null) {
            stack.destroy();
            assertThat(stack.waitFor(90, TimeUnit.SECONDS)).as("the stack stops on SIGTERM").isTrue();
        }
    }

    @Test
    void shouldFollowAReassignmentFromTheProjectionIntoThePlacementAndItsAuthorization() throws Exception {
        String caseId = SampleCase.CASE_ID.toString();
        String former = TOKENS.get("GEORGIA_CASEWORKER_TOKEN");
        String successor = TOKENS.get("GEORGIA_CASEWORKER_2_TOKEN");
        assertThat(TOKENS).containsKeys(LocalTokens.JURISDICTIONS.stream()
                .flatMap(j -> LocalTokens.ROLES.stream().map(r -> LocalTokens.variable(j, r))).toArray(String[]::new));

        // as the banner shows: a supervisor registers a home and activates its license, the caseworker proposes a
        // placement in it
        String supervisor = TOKENS.get("GEORGIA_SUPERVISOR_TOKEN");
        HttpResponse<String> home = send("POST", "/foster-homes", supervisor, null, "{\"name\":\"Maple House\","
                + "\"license_number\":\"GA-E2E-1\",\"admin_unit\":\"" + LocalTokens.adminUnit("georgia") + "\",\"capacity\":2}");
        assertThat(home.statusCode()).as(home.body()).isEqualTo(201);
        String homePath = home.headers().firstValue("Location").map(l -> l.startsWith("http") ? URI.create(l).getPath() : l)
                .orElseThrow();
        HttpResponse<String> licensed = send("PATCH", homePath, supervisor, home.headers().firstValue("ETag").orElseThrow(),
                "{\"license_status\":\"ACTIVE\"}");
        assertThat(licensed.statusCode()).as(licensed.body()).isEqualTo(200);
        String homeId = homePath.substring(homePath.lastIndexOf('/') + 1);
        HttpResponse<String> created = send("POST", "/cases/" + caseId + "/placements", former, null,
                "{\"foster_home_id\":\"" + homeId + "\",\"start_date\":\"2026-12-01\"}");
        assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
        String placement = created.headers().firstValue("Location").map(l -> l.startsWith("http") ? URI.create(l).getPath() : l)
                .orElseThrow();
        String oldEtag = created.headers().firstValue("ETag").orElseThrow();

        // no other jurisdiction's token reaches the Georgia case or its placement
        String texasAdmin = TOKENS.get("TEXAS_ADMIN_TOKEN");
        assertThat(send("POST", "/cases/" + caseId + "/placements", texasAdmin, null, "{}").statusCode()).isEqualTo(403);
        assertThat(send("PATCH", placement, texasAdmin, oldEtag, "{\"status\":\"ACTIVE\"}").statusCode()).isEqualTo(403);

        // the upstream case service reassigns the case
        try (KafkaProducer<String, SpecificRecord> producer = SampleCase.producer("localhost:" + kafkaPort)) {
            producer.send(new ProducerRecord<>(CaseTopics.DEFAULT_EVENTS, caseId, CaseAssignmentChanged.newBuilder()
                    .setEventId(java.util.UUID.randomUUID().toString()).setCaseId(caseId)
                    .setAssignedWorkerSub("georgia-caseworker-2").setSupervisorSub("georgia-supervisor")
                    .setAssignmentRevision(1).setOccurredAt(Instant.now()).build())).get(30, TimeUnit.SECONDS);
        }

        // the projection and the placement follow
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            HttpResponse<String> assignment = send("GET", "/cases/" + caseId + "/assignment", successor, null, null);
            assertThat(assignment.statusCode()).isEqualTo(200);
            assertThat(assignment.body()).contains("\"georgia-caseworker-2\"");
            HttpResponse<String> read = send("GET", placement, successor, null, null);
            assertThat(read.statusCode()).isEqualTo(200);
            assertThat(read.body()).contains("\"georgia-caseworker-2\"");
        });

        // the old ETag is stale, the former caseworker is refused, the new one may write
        String patch = "{\"status\":\"ACTIVE\"}";
        assertThat(send("PATCH", placement, successor, oldEtag, patch).statusCode()).isEqualTo(412);
        String currentEtag = send("GET", placement, successor, null, null).headers().firstValue("ETag").orElseThrow();
        assertThat(send("PATCH", placement, former, currentEtag, patch).statusCode()).isEqualTo(403);
        HttpResponse<String> accepted = send("PATCH", placement, successor, currentEtag, patch);
        assertThat(accepted.statusCode()).as(accepted.body()).isEqualTo(200);
        assertThat(accepted.body()).contains("ACTIVE");
    }

    @Test
    void shouldEvaluateEveryAlertRuleAndEveryServicePanelQueryWithDataInObserveMode() throws Exception {
        if (LocalPrometheus.binary(System.getenv()).isEmpty()) {
            String message = "prometheus is not on the PATH: the observe-mode check (every panel query and alert rule "
                    + "evaluated by Prometheus) was LEFT OUT. CI runs it; to run it here, put prometheus (Debian's "
                    + "prometheus package) on the PATH or name it in PROMETHEUS.";
            System.out.println("[WARNING] " + message);
            Assumptions.abort(message);
        }
        Matcher banner = Pattern.compile(" Prometheus +(http://localhost:\\d+)/alerts").matcher(OUTPUT);
        assertThat(banner.find()).as("the banner says where Prometheus is:\n" + OUTPUT).isTrue();
        String prometheus = banner.group(1);
        boolean pushgateway = pushgatewayInstalled();
        if (!pushgateway) {
            System.out.println("[WARNING] no Pushgateway is installed: the jobs dashboard's queries and the failed job's "
                    + "alert were LEFT OUT of the observe-mode check. CI runs them; to run them here, install Debian's "
                    + "prometheus-pushgateway beside prometheus or name it in PUSHGATEWAY.");
        }
        List<String> applications = pushgateway ? List.of("projector", "mutation-api", "backfill")
                : List.of("projector", "mutation-api");

        // Given a little traffic: writes through the API (one created, one refused, one stale, one without If-Match,
        // one retried with its Idempotency-Key) and events through the projector
        driveTraffic();
        // And two backfill jobs run as an operator runs them, pushing to the Pushgateway: a replay of the stack's
        // events, which ends well, and a verify without its snapshot, which is bad usage
        if (pushgateway) {
            assertThat(runJob("replay", "--group", "e2e-replay-" + UUID.randomUUID())).as("the replay's exit code").isZero();
            assertThat(runJob("verify")).as("verify's exit code without a snapshot").isEqualTo(64);
        }

        // And every target is scraped whole once the services have served it (up == 1), not only before
        Instant served = Instant.now();
        Map<String, String> scrapes = await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofSeconds(1))
                .until(() -> scrapesSince(prometheus, served), scraped -> scraped.size() == applications.size());
        Map<String, String> healthy = new TreeMap<>();
        Map<String, String> upAll = new TreeMap<>();
        applications.forEach(application -> {
            healthy.put(application, "up ");
            upAll.put(application, "1");
        });
        assertThat(scrapes).as("each target's health and last error after the traffic").isEqualTo(healthy);
        Map<String, String> up = new TreeMap<>();
        for (JsonNode series : prometheusApi(prometheus, "/api/v1/query?query=up").path("data").path("result")) {
            up.put(series.path("metric").path("application").asString(), series.path("value").path(1).asString());
        }
        assertThat(up).isEqualTo(upAll);

        // Then every shipped alert is loaded and evaluates without error
        Set<String> shipped = new TreeSet<>();
        for (String service : List.of("projector", "mutation-api", "jobs")) {
            OpsDefinitions.alertRules(OpsDefinitions.rules(service)).forEach(rule -> shipped.add(String.valueOf(rule.get("alert"))));
        }
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            Map<String, String> health = new TreeMap<>();
            for (JsonNode group : prometheusApi(prometheus, "/api/v1/rules?type=alert").path("data").path("groups")) {
                for (JsonNode rule : group.path("rules")) {
                    health.put(rule.path("name").asString(), rule.path("health").asString() + " " + rule.path("lastError").asString(""));
                }
            }
            assertThat(health.keySet()).isEqualTo(shipped);
            assertThat(health).allSatisfy((alert, state) -> assertThat(state).as(alert).isEqualTo("ok "));
        });

        // And the failed job's alert fires, its runbook link, as Prometheus renders it with the stack's runbook_base,
        // leading to this checkout's runbooks and to a heading of them
        if (pushgateway) {
            JsonNode failed = await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(2))
                    .until(() -> firing(prometheus, "BackfillJobFailed", "verify"), alert -> !alert.isMissingNode());
            assertThat(failed.path("annotations").path("summary").asString()).contains("backfill verify", "exit code 64");
            String link = failed.path("annotations").path("runbook_url").asString();
            assertThat(link).startsWith(ROOT.toUri().toString()).contains("#");
            Path page = Path.of(URI.create(link.substring(0, link.indexOf('#'))));
            assertThat(page).isEqualTo(ROOT.resolve("docs/operations.md"));
            assertThat(OpsDefinitions.headingAnchors(page)).as("the headings of " + page).contains(URI.create(link).getFragment());
        }

        // And every query of the projector's, the API's and (with the Pushgateway) the jobs' dashboards returns data
        Map<String, String> queries = new LinkedHashMap<>();
        for (String service : pushgateway ? List.of("projector", "mutation-api", "jobs") : List.of("projector", "mutation-api")) {
            OpsDefinitions.panelExpressions(OpsDefinitions.dashboard(service)).forEach((title, exprs) -> {
                for (int i = 0; i < exprs.size(); i++) {
                    queries.put(service + " / " + title + " #" + (i + 1), asGrafanaSends(exprs.get(i)));
                }
            });
        }
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
            Map<String, String> empty = new LinkedHashMap<>();
            for (var query : queries.entrySet()) {
                JsonNode answer = prometheusApi(prometheus, "/api/v1/query?query="
                        + URLEncoder.encode(query.getValue(), StandardCharsets.UTF_8));
                assertThat(answer.path("status").asString()).as(query.getKey() + ": " + answer).isEqualTo("success");
                // A panel of server errors has no series on a healthy stack: it must evaluate, not return data
                if (answer.path("data").path("result").isEmpty() && !query.getValue().contains("status=~\"5..\"")) {
                    empty.put(query.getKey(), query.getValue());
                }
            }
            assertThat(empty).as("panel queries that return no data").isEmpty();
        });
    }

    /**
     * Whether a Pushgateway is installed beside the installed Prometheus: then the stack must have started it (and
     * written its address to jobs.env), and a stack that went on without it fails the test; only a missing binary
     * leaves the jobs' part out.
     */
    private static boolean pushgatewayInstalled() {
        boolean installed = LocalPrometheus.binary(System.getenv())
                .flatMap(prometheus -> LocalPrometheus.pushgatewayBinary(System.getenv(), prometheus)).isPresent();
        assertThat(!installed || JOBS.containsKey("BACKFILL_PUSHGATEWAY_ADDRESS"))
                .as("a Pushgateway is installed, yet the stack went on without it (no BACKFILL_PUSHGATEWAY_ADDRESS in "
                        + "jobs.env: " + JOBS.keySet() + "). Output:\n" + OUTPUT).isTrue();
        return installed;
    }

    /**
     * A panel's query as Grafana sends it with the dashboards' defaults: every instance ({@code $instance}'s "All"),
     * and a rate window that holds several scrapes of the local Prometheus.
     */
    static String asGrafanaSends(String expr) {
        String sent = expr.replace("$__rate_interval", "1m").replace("$__interval", "1m").replace("$instance", ".*");
        assertThat(sent).as("a template variable left in " + expr).doesNotContain("$");
        return sent;
    }

    private static void driveTraffic() throws Exception {
        String supervisor = TOKENS.get("GEORGIA_SUPERVISOR_TOKEN");
        String body = "{\"name\":\"Observed House\",\"license_number\":\"GA-OBS-1\",\"admin_unit\":\""
                + LocalTokens.adminUnit("georgia") + "\",\"capacity\":1}";
        HttpRequest.Builder create = HttpRequest.newBuilder(URI.create(api + "/foster-homes"))
                .header("Authorization", "Bearer " + supervisor).header("Content-Type", "application/json")
                .header("Idempotency-Key", UUID.randomUUID().toString()).POST(HttpRequest.BodyPublishers.ofString(body));
        HttpResponse<String> home = HTTP.send(create.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(home.statusCode()).as(home.body()).isEqualTo(201);
        assertThat(HTTP.send(create.build(), HttpResponse.BodyHandlers.ofString()).statusCode()).as("the retry").isEqualTo(201);
        String homePath = URI.create(api).resolve(home.headers().firstValue("Location").orElseThrow()).getPath();
        String etag = home.headers().firstValue("ETag").orElseThrow();
        assertThat(send("PATCH", homePath, supervisor, null, "{\"capacity\":2}").statusCode()).isEqualTo(428);
        assertThat(send("PATCH", homePath, supervisor, etag, "{\"capacity\":2}").statusCode()).isEqualTo(200);
        assertThat(send("PATCH", homePath, supervisor, etag, "{\"capacity\":3}").statusCode()).isEqualTo(412);
        assertThat(send("POST", "/cases/" + SampleCase.CASE_ID + "/placements", TOKENS.get("TEXAS_ADMIN_TOKEN"), null, "{}")
                .statusCode()).isEqualTo(403);

        // a new case, then two changes that claim the same revision with different caseworkers: an upstream contract
        // violation, which the projector counts (the conflicts panel has no series before the first one)
        String caseId = UUID.randomUUID().toString();
        try (KafkaProducer<String, SpecificRecord> producer = SampleCase.producer("localhost:" + kafkaPort)) {
            producer.send(new ProducerRecord<>(CaseTopics.DEFAULT_EVENTS, caseId, CaseCreated.newBuilder()
                    .setEventId(UUID.randomUUID().toString()).setCaseId(caseId)
                    .setAssignedWorkerSub("georgia-caseworker").setSupervisorSub("georgia-supervisor")
                    .setOccurredAt(Instant.now()).setJurisdiction("georgia").build())).get(30, TimeUnit.SECONDS);
            for (String worker : List.of("georgia-caseworker-2", "georgia-caseworker")) {
                producer.send(new ProducerRecord<>(CaseTopics.DEFAULT_EVENTS, caseId, CaseAssignmentChanged.newBuilder()
                        .setEventId(UUID.randomUUID().toString()).setCaseId(caseId).setAssignedWorkerSub(worker)
                        .setSupervisorSub("georgia-supervisor").setAssignmentRevision(1).setOccurredAt(Instant.now())
                        .build())).get(30, TimeUnit.SECONDS);
            }
        }
        String supervisorOfTheCase = TOKENS.get("GEORGIA_SUPERVISOR_TOKEN");
        await().atMost(Duration.ofSeconds(60))
                .until(() -> send("GET", "/cases/" + caseId + "/assignment", supervisorOfTheCase, null, null).statusCode() == 200);
    }

    /**
     * Runs a backfill job as an operator runs it from the repository, with the stack's jobs.env and nothing else of this
     * JVM's environment, and answers its exit code.
     */
    private static int runJob(String... arguments) throws IOException, InterruptedException {
        Path output = Files.createTempFile("backfill-job", ".out");
        List<String> command = new java.util.ArrayList<>(List.of("bash", "./backfill-cli"));
        command.addAll(List.of(arguments));
        ProcessBuilder job = new ProcessBuilder(command).directory(ROOT.toFile()).redirectErrorStream(true)
                .redirectOutput(output.toFile());
        job.environment().clear();
        job.environment().putAll(inherited());
        job.environment().putAll(JOBS);
        Process process = job.start();
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("backfill " + String.join(" ", arguments) + " still ran after 3 minutes:\n"
                    + Files.readString(output));
        }
        System.out.println("backfill " + String.join(" ", arguments) + " exited " + process.exitValue() + ":\n"
                + Files.readString(output));
        Files.delete(output);
        return process.exitValue();
    }

    /** PATH, HOME and JAVA_HOME of this JVM's environment, as far as it has them. */
    private static Map<String, String> inherited() {
        Map<String, String> env = new java.util.HashMap<>();
        for (String inherited : List.of("PATH", "HOME", "JAVA_HOME")) {
            if (System.getenv(inherited) != null) {
                env.put(inherited, System.getenv(inherited));
            }
        }
        return env;
    }

    /** The firing alert of that name for that job's command, or a missing node. */
    private static JsonNode firing(String prometheus, String alertname, String command) throws IOException, InterruptedException {
        for (JsonNode alert : prometheusApi(prometheus, "/api/v1/alerts").path("data").path("alerts")) {
            if (alert.path("labels").path("alertname").asString().equals(alertname)
                    && alert.path("labels").path("command").asString().equals(command)
                    && alert.path("state").asString().equals("firing")) {
                return alert;
            }
        }
        return tools.jackson.databind.node.MissingNode.getInstance();
    }

    /** The health and last error of each target Prometheus has scraped since {@code since}, by application. */
    private static Map<String, String> scrapesSince(String prometheus, Instant since) throws IOException, InterruptedException {
        Map<String, String> scraped = new TreeMap<>();
        for (JsonNode target : prometheusApi(prometheus, "/api/v1/targets?state=active").path("data").path("activeTargets")) {
            if (java.time.OffsetDateTime.parse(target.path("lastScrape").asString()).toInstant().isAfter(since)) {
                scraped.put(target.path("labels").path("application").asString(),
                        target.path("health").asString() + " " + target.path("lastError").asString(""));
            }
        }
        return scraped;
    }

    private static JsonNode prometheusApi(String prometheus, String pathAndQuery) throws IOException, InterruptedException {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(prometheus + pathAndQuery)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(pathAndQuery + ": " + response.body()).isEqualTo(200);
        return new ObjectMapper().readTree(response.body());
    }

    /**
     * Every command of the runbooks (docs/operations.md: its bash and SQL blocks, its curls against the management
     * ports) runs with bash against this stack, in page order, as an operator runs it with the documented variables set
     * and nothing else of this JVM's environment, and exits 0; what a command acts on ({@link RunbookSubjects}: a case, a
     * snapshot, a stopped projector's group, a session to end, a shadow left behind) is the stack's, and is checked
     * after it. A command annotated {@code <!-- runs: … -->}, or needing a tool this machine lacks, is printed as LEFT
     * OUT; only with every tool present must at least 10 run. A command still running at the overall limit is killed
     * with its children.
     */
    @Test
    void shouldRunEveryRunbookCommandAgainstTheStack() throws Exception {
        Map<String, String> env = new java.util.HashMap<>(Map.of(
                "DATABASE_URL", "jdbc:postgresql://localhost:" + postgresPort + "/" + LocalDatabase.DATABASE,
                "DATABASE_USERNAME", "postgres", "DATABASE_PASSWORD", "postgres",
                "KAFKA_BOOTSTRAP_SERVERS", "localhost:" + kafkaPort,
                "PROJECTOR", "localhost:" + projectorManagementPort, "API", "localhost:" + apiManagementPort,
                "LOG_FORMAT", ""));
        env.putAll(inherited());
        String pushgateway = pushgatewayInstalled() ? JOBS.get("BACKFILL_PUSHGATEWAY_ADDRESS") : null;
        if (pushgateway != null) {
            env.put("BACKFILL_PUSHGATEWAY_ADDRESS", pushgateway);
            // the group BackfillJobFailed's runbook deletes, so that its check finds it gone only if the delete hit it
            HttpResponse<String> pushed = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + pushgateway
                    + "/metrics/job/case-assignments-backfill/command/assignments/instance/ops-1.example.org"))
                    .PUT(HttpRequest.BodyPublishers.ofString("runbook_group_to_delete 1\n")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(pushed.statusCode()).as(pushed.body()).isIn(200, 202);
        }
        List<RunbookCommands.Command> commands = RunbookCommands.of(ROOT.resolve("docs/operations.md"));
        String prelude = "set -euo pipefail\n" + RunbookCommands.prelude(commands);
        long deadline = System.nanoTime() + RUNBOOK_LIMIT.toNanos();
        List<String> failures = new java.util.ArrayList<>();
        int ran = 0;
        boolean toolMissing = false;
        RunbookSubjects subjects = RunbookSubjects.prepare(env.get("DATABASE_URL"), env.get("KAFKA_BOOTSTRAP_SERVERS"),
                ROOT.resolve("local/target/runbook-subjects"));
        try {
            env.putAll(subjects.environment(env.get("PATH")));
            for (RunbookCommands.Command command : commands) {
                String leftOut = command.leftOut() != null ? command.leftOut() : command.missingTools();
                if (leftOut == null && pushgateway == null && command.script().contains("$BACKFILL_PUSHGATEWAY_ADDRESS")) {
                    leftOut = "needs the Pushgateway, which this stack runs without";
                }
                if (leftOut != null) {
                    toolMissing |= command.leftOut() == null;
                    System.out.println("LEFT OUT docs/operations.md:" + command.line() + ": " + leftOut);
                    continue;
                }
                Path output = Files.createTempFile("runbook-command", ".out");
                ProcessBuilder bash = new ProcessBuilder("bash", "-c", prelude + command.script()).directory(ROOT.toFile())
                        .redirectErrorStream(true).redirectOutput(output.toFile());
                bash.environment().clear();
                bash.environment().putAll(env);
                bash.environment().putAll(subjects.before(command.script()));
                Process process = bash.start();
                boolean ended = process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (!ended) {
                    process.descendants().forEach(ProcessHandle::destroyForcibly);
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
                String notDone = subjects.after(command.script());
                if (!ended || process.exitValue() != 0 || notDone != null) {
                    failures.add("docs/operations.md:" + command.line() + (!ended ? " still ran when the runbook commands "
                            + "reached " + RUNBOOK_LIMIT : process.exitValue() != 0 ? " exited " + process.exitValue()
                            : " exited 0, but " + notDone) + ":\n" + command.script() + Files.readString(output));
                }
                Files.delete(output);
                ran++;
            }
        } finally {
            subjects.close();
        }
        String reset = subjects.groupAtLogStart();
        if (reset != null) {
            failures.add("the runbook's reset of a stopped projector's offsets did not set them: " + reset);
        }
        assertThat(failures).as("runbook commands that fail against the local stack").isEmpty();
        if (toolMissing) {
            System.out.println("LEFT OUT the minimum of 10 runbook commands: a tool is missing, " + ran + " ran");
        } else {
            assertThat(ran).as("runbook commands run").isGreaterThanOrEqualTo(10);
        }
    }

    private static HttpResponse<String> send(String method, String path, String token, String ifMatch, String body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(api + path))
                .header("Authorization", "Bearer " + token)
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (ifMatch != null) {
            request.header("If-Match", ifMatch);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static void readOutput(CountDownLatch ready) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(stack.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                OUTPUT.append(line).append('\n');
                if (line.equals(LocalStack.READY_LINE)) {
                    ready.countDown();
                }
            }
        } catch (IOException e) {
            OUTPUT.append("output ended: ").append(e).append('\n');
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** A free port whose next one is free too: the broker's controller listens on the port after the broker's. */
    private static int freePortWithFreeNext() throws IOException {
        for (int attempt = 0; attempt < 50; attempt++) {
            try (ServerSocket socket = new ServerSocket(0); ServerSocket next = new ServerSocket(socket.getLocalPort() + 1)) {
                return socket.getLocalPort();
            } catch (IOException taken) {
                // the next port is in use: draw another
            }
        }
        throw new IOException("found no two free ports in a row in 50 draws");
    }
}
