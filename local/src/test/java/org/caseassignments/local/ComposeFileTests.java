package org.caseassignments.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * No Docker engine runs here, so the compose file is checked by reading it: every variable it sets
 * on our services is one the application reads, and every address and port agrees with a service.
 */
class ComposeFileTests {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Z0-9_]+)");
    private static final Pattern ADDRESS = Pattern.compile("(?:^|//|@)([a-z][a-z0-9-]*):(\\d+)");
    private static final Pattern PORT_IN_LISTENER = Pattern.compile(":(\\d+)");
    private static final List<String> OPS_SERVICES = List.of("prometheus", "pushgateway", "grafana");

    private final Map<String, Map<String, Object>> services = services();

    @Test
    void shouldSetOnlyEnvironmentVariablesTheApplicationsRead() throws IOException {
        for (String service : ownServices()) {
            Set<String> read = variablesReadBy(moduleOf(service));
            assertThat(environment(service).keySet())
                    .as("environment of %s must be read by %s/src/main/resources/application.yml", service, moduleOf(service))
                    .isSubsetOf(read);
        }
    }

    @Test
    void shouldPointEveryAddressAtAServiceThatListensOnThatPort() {
        for (String service : ownServices()) {
            for (Object value : environment(service).values()) {
                Matcher address = ADDRESS.matcher(String.valueOf(value));
                while (address.find()) {
                    String target = address.group(1);
                    int port = Integer.parseInt(address.group(2));
                    assertThat(services).as("%s refers to service %s", service, target).containsKey(target);
                    assertThat(listeningPorts(target)).as("%s reaches %s on port %d", service, target, port).contains(port);
                }
            }
        }
    }

    @Test
    void shouldPublishAndHealthCheckThePortEachServiceListensOn() throws IOException {
        Map<String, String> portVariables = Map.of("projector", "PROJECTOR_PORT", "mutation-api", "MUTATION_API_PORT");
        for (String service : ownServices()) {
            int port = Integer.parseInt(String.valueOf(environment(service).get(portVariables.get(service))));
            List<?> published = (List<?>) services.get(service).get("ports");
            assertThat(published).as("ports of %s", service)
                    .anySatisfy(mapping -> assertThat(String.valueOf(mapping)).endsWith(":" + port));
            String dockerfile = stage(moduleOf(service));
            assertThat(dockerfile).containsPattern("EXPOSE .*\\b" + port + "\\b")
                    .contains("/dev/tcp/localhost/" + port, "GET /readyz HTTP/1.0");
        }
    }

    @Test
    void shouldBuildImagesOnADependencyLayerWithoutBuildKitNoHttpClientAndAnExitOnOutOfMemory() throws IOException {
        String dockerfile = Files.readString(ROOT.resolve("Dockerfile"));
        String build = stage("build");
        int sources = build.indexOf("COPY . .");
        int dependencies = build.indexOf("dependency:go-offline");
        assertThat(dependencies).as("the dependencies are fetched in a layer of their own, before the sources")
                .isPositive().isLessThan(sources);
        for (String module : modules()) {
            // the reactor reads every module's pom, so each one is copied before the dependency layer
            assertThat(build.substring(0, dependencies))
                    .containsPattern("COPY " + Pattern.quote(module + "/pom.xml") + " " + Pattern.quote(module + "/"));
        }
        assertThat(dockerfile).doesNotContain("curl", "apt-get", "--mount", "# syntax");
        for (String module : List.of("projector", "mutation-api", "backfill")) {
            assertThat(build).as("the build stage packages %s", module).contains("-pl projector,mutation-api,backfill ");
            assertThat(stage(module)).as(module)
                    .contains("COPY --from=build /src/" + module + "/target/" + module + "-*-exec.jar")
                    .contains("\"-XX:+ExitOnOutOfMemoryError\"");
        }
    }

    /** The text of one stage of the root Dockerfile: from its FROM line to the next. */
    private static String stage(String name) throws IOException {
        String dockerfile = Files.readString(ROOT.resolve("Dockerfile"));
        Matcher from = Pattern.compile("(?m)^FROM \\S+ AS " + Pattern.quote(name) + "$").matcher(dockerfile);
        assertThat(from.find()).as("a stage %s in the Dockerfile", name).isTrue();
        int next = dockerfile.indexOf("\nFROM ", from.end());
        return dockerfile.substring(from.start(), next < 0 ? dockerfile.length() : next);
    }

    private static List<String> modules() throws IOException {
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(Files.readString(ROOT.resolve("pom.xml")));
        List<String> modules = new java.util.ArrayList<>();
        while (module.find()) {
            modules.add(module.group(1));
        }
        assertThat(modules).isNotEmpty();
        return modules;
    }

    @Test
    void shouldServeTheManagementPortToTheStacksNetworkSinceTheApplicationsBindLoopbackByDefault() {
        Map<String, String> addressVariables = Map.of("projector", "PROJECTOR_MANAGEMENT_ADDRESS",
                "mutation-api", "MUTATION_API_MANAGEMENT_ADDRESS");
        for (String service : ownServices()) {
            // a scraper in another container reaches the exposed port only on the container's own network address
            assertThat(environment(service)).as("environment of %s", service)
                    .containsEntry(addressVariables.get(service), "0.0.0.0");
        }
    }

    @Test
    void shouldKeepTheManagementPortInternal() throws IOException {
        Map<String, String> managementVariables = Map.of("projector", "PROJECTOR_MANAGEMENT_PORT",
                "mutation-api", "MUTATION_API_MANAGEMENT_PORT");
        for (String service : ownServices()) {
            int management = Integer.parseInt(String.valueOf(environment(service).get(managementVariables.get(service))));
            List<?> published = (List<?>) services.get(service).get("ports");
            assertThat(published).as("%s publishes no mapping to its management port %d", service, management)
                    .noneSatisfy(mapping -> assertThat(String.valueOf(mapping)).endsWith(":" + management));
            assertThat((List<?>) services.get(service).get("expose")).as("expose of %s", service)
                    .map(String::valueOf).contains(String.valueOf(management));
            String dockerfile = stage(moduleOf(service));
            assertThat(dockerfile).containsPattern("EXPOSE .*\\b" + management + "\\b");
        }
    }

    @Test
    void shouldDependOnlyOnServicesThatExistAndHaveHealthChecks() {
        for (var entry : services.entrySet()) {
            Object dependsOn = entry.getValue().get("depends_on");
            if (dependsOn instanceof Map<?, ?> map) {
                for (Object target : map.keySet()) {
                    assertThat(services).as("%s depends on %s", entry.getKey(), target).containsKey((String) target);
                    boolean healthChecked = services.get(target).containsKey("healthcheck")
                            || services.get(target).containsKey("build");
                    assertThat(healthChecked).as("%s has a health check to wait for", target).isTrue();
                }
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldScrapeBothServicesOnTheirManagementAddressAndThePushgatewayWithTheApplicationLabel() {
        Map<String, Object> prometheus = prometheusConfig();
        Map<String, String> expected = new LinkedHashMap<>();
        Map<String, String> managementVariables = Map.of("projector", "PROJECTOR_MANAGEMENT_PORT",
                "mutation-api", "MUTATION_API_MANAGEMENT_PORT");
        for (String service : ownServices()) {
            expected.put(service + ":" + environment(service).get(managementVariables.get(service)), service);
        }
        expected.put("pushgateway:" + listeningPorts("pushgateway").iterator().next(), "backfill");

        Map<String, String> scraped = new LinkedHashMap<>();
        for (Map<String, Object> job : (List<Map<String, Object>>) prometheus.get("scrape_configs")) {
            for (Map<String, Object> targets : (List<Map<String, Object>>) job.get("static_configs")) {
                Map<String, Object> labels = (Map<String, Object>) targets.getOrDefault("labels", Map.of());
                for (Object target : (List<?>) targets.get("targets")) {
                    scraped.put(String.valueOf(target), String.valueOf(labels.get("application")));
                    boolean pushgateway = "backfill".equals(labels.get("application"));
                    // the services' meters are on the actuator; a job's pushed labels (its instance) are kept
                    assertThat(job.get(pushgateway ? "honor_labels" : "metrics_path")).as("job %s", job.get("job_name"))
                            .isEqualTo(pushgateway ? true : "/actuator/prometheus");
                }
            }
        }
        assertThat(scraped).as("targets and their application label").isEqualTo(expected);
        Map<String, Object> global = (Map<String, Object>) prometheus.get("global");
        assertThat((Map<String, Object>) global.get("external_labels")).as("the rules build runbook_url from it")
                .containsKey("runbook_base");
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldLoadExactlyTheShippedRulesFilesIntoPrometheus() throws IOException {
        Map<String, Path> mounts = mounts("prometheus");
        Path config = hostPathOf(mounts, "/etc/prometheus/prometheus.yml");
        assertThat(config).isEqualTo(ROOT.resolve("ops/prometheus/prometheus.yml"));
        Path configDir = Path.of("/etc/prometheus");
        List<Path> loaded = new java.util.ArrayList<>();
        for (String pattern : (List<String>) prometheusConfig().get("rule_files")) {
            Path inContainer = configDir.resolve(pattern);
            Path hostDir = hostPathOf(mounts, inContainer.getParent().toString());
            try (var files = Files.newDirectoryStream(hostDir, inContainer.getFileName().toString())) {
                files.forEach(loaded::add);
            }
        }
        List<Path> shipped;
        try (var files = Files.list(ROOT.resolve("ops/prometheus"))) {
            shipped = files.filter(f -> f.getFileName().toString().endsWith(".rules.yml")).toList();
        }
        assertThat(shipped).isNotEmpty();
        assertThat(loaded).as("rules files Prometheus loads in compose").containsExactlyInAnyOrderElementsOf(shipped);
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldProvisionGrafanaWithTheShippedDashboardsAndTheDatasourceTheyName() throws IOException {
        Map<String, Path> mounts = mounts("grafana");
        Path datasources = hostPathOf(mounts, "/etc/grafana/provisioning/datasources");
        Path providers = hostPathOf(mounts, "/etc/grafana/provisioning/dashboards");
        assertThat(datasources).isDirectory();
        assertThat(providers).isDirectory();

        GrafanaProvisioning provisioning = GrafanaProvisioning.read(datasources, providers);
        Map<String, Object> datasource = provisioning.datasource();
        assertThat(String.valueOf(datasource.get("url"))).as("the datasource reaches the compose Prometheus")
                .isEqualTo("http://prometheus:" + listeningPorts("prometheus").iterator().next());
        for (String dashboardsPath : provisioning.dashboardPaths()) {
            assertThat(hostPathOf(mounts, dashboardsPath)).as("the dashboards provider's path, on the host")
                    .isEqualTo(ROOT.resolve("ops/grafana"));
        }
        for (Path dashboard : GrafanaProvisioning.dashboards(ROOT.resolve("ops/grafana"))) {
            assertThat(GrafanaProvisioning.datasourceUids(dashboard)).as("datasource of every panel of %s", dashboard)
                    .containsOnly(String.valueOf(datasource.get("uid")));
        }
    }

    @Test
    void shouldPublishTheOpsPortsOnLoopbackOnlyAndRequireGrafanasAdminPassword() {
        for (String service : OPS_SERVICES) {
            for (Object mapping : (List<?>) services.get(service).getOrDefault("ports", List.of())) {
                // Prometheus's API and Grafana's login are not for the network: a published port binds every interface
                assertThat(String.valueOf(mapping)).as("port mapping of %s", service).startsWith("127.0.0.1:");
            }
        }
        assertThat(String.valueOf(environment("grafana").get("GF_SECURITY_ADMIN_PASSWORD")))
                .as("Grafana's admin password has no default").startsWith("${GRAFANA_ADMIN_PASSWORD:?");
    }

    @Test
    void shouldRestartTheOpsLikeTheServicesAndKeepThePushedMetricsOnAVolume() {
        for (String service : OPS_SERVICES) {
            assertThat(services.get(service)).as(service).containsEntry("restart", "unless-stopped");
        }
        List<?> command = (List<?>) services.get("pushgateway").get("command");
        assertThat(command).as("the Pushgateway's command").isNotNull();
        String persistence = command.stream().map(String::valueOf).filter(a -> a.startsWith("--persistence.file="))
                .findFirst().orElseThrow(() -> new AssertionError("the Pushgateway keeps no persistence file: " + command));
        Path file = Path.of(persistence.substring("--persistence.file=".length()));
        assertThat((List<?>) services.get("pushgateway").get("volumes")).as("volumes of the Pushgateway")
                .map(String::valueOf).anySatisfy(volume -> {
                    String[] parts = volume.split(":");
                    assertThat(parts[0]).as("a named volume").doesNotStartWith(".").doesNotStartWith("/");
                    assertThat(file.startsWith(Path.of(parts[1]))).as("%s holds %s", volume, file).isTrue();
                });
    }

    @Test
    void shouldPinEveryImage() {
        for (var entry : services.entrySet()) {
            Object image = entry.getValue().get("image");
            if (image != null) {
                assertThat(String.valueOf(image)).as("image of %s", entry.getKey())
                        .matches("[a-z0-9./-]+:v?\\d+\\.\\d+\\.\\d+|postgres:\\d+");
            }
        }
    }

    /** A service's bind mounts: the path in the container, to the file or folder of this repository. */
    private Map<String, Path> mounts(String service) {
        assertThat(services).containsKey(service);
        Map<String, Path> mounts = new LinkedHashMap<>();
        for (Object volume : (List<?>) services.get(service).getOrDefault("volumes", List.of())) {
            String[] parts = String.valueOf(volume).split(":");
            if (parts[0].startsWith(".")) {
                mounts.put(parts[1], ROOT.resolve(parts[0]).normalize());
            }
        }
        return mounts;
    }

    /** Where a path in the container comes from on the host, through the mount that holds it. */
    private static Path hostPathOf(Map<String, Path> mounts, String inContainer) {
        for (var mount : mounts.entrySet()) {
            Path target = Path.of(mount.getKey());
            Path path = Path.of(inContainer);
            if (path.startsWith(target)) {
                Path host = mount.getValue().resolve(target.relativize(path).toString()).normalize();
                assertThat(host).as("%s in the container is %s", inContainer, host).exists();
                return host;
            }
        }
        throw new AssertionError("nothing is mounted at " + inContainer + "; mounts: " + mounts);
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> prometheusConfig() {
        try {
            return new Yaml().load(Files.readString(hostPathOf(mounts("prometheus"), "/etc/prometheus/prometheus.yml")));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private Set<Integer> listeningPorts(String service) {
        Map<String, Object> env = environment(service);
        Set<Integer> ports = new HashSet<>();
        switch (service) {
            case "kafka" -> addPorts(ports, env.get("KAFKA_LISTENERS"));
            case "schema-registry" -> addPorts(ports, env.get("SCHEMA_REGISTRY_LISTENERS"));
            case "postgres" -> ports.add(5432);
            case "projector" -> ports.add(Integer.parseInt(String.valueOf(env.get("PROJECTOR_PORT"))));
            case "mutation-api" -> ports.add(Integer.parseInt(String.valueOf(env.get("MUTATION_API_PORT"))));
            case "prometheus" -> ports.add(9090);
            case "pushgateway" -> ports.add(9091);
            case "grafana" -> ports.add(3000);
            default -> throw new AssertionError("no rule for the ports of service " + service);
        }
        return ports;
    }

    private static void addPorts(Set<Integer> ports, Object listeners) {
        Matcher m = PORT_IN_LISTENER.matcher(String.valueOf(listeners));
        while (m.find()) {
            ports.add(Integer.parseInt(m.group(1)));
        }
    }

    private List<String> ownServices() {
        List<String> own = services.entrySet().stream().filter(e -> e.getValue().containsKey("build")).map(Map.Entry::getKey).toList();
        assertThat(own).containsExactlyInAnyOrder("projector", "mutation-api");
        return own;
    }

    /** The module a service runs: its build target in the root Dockerfile. */
    private String moduleOf(String service) {
        @SuppressWarnings("unchecked")
        Map<String, Object> build = (Map<String, Object>) services.get(service).get("build");
        assertThat(build).as("build of %s", service).doesNotContainKey("dockerfile").containsEntry("context", ".");
        return String.valueOf(build.get("target"));
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> environment(String service) {
        Object env = services.get(service).get("environment");
        return env == null ? Map.of() : (Map<String, Object>) env;
    }

    private static Set<String> variablesReadBy(String module) throws IOException {
        String config = Files.readString(ROOT.resolve(module).resolve("src/main/resources/application.yml"));
        Set<String> read = new HashSet<>();
        Matcher m = PLACEHOLDER.matcher(config);
        while (m.find()) {
            read.add(m.group(1));
        }
        return read;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Map<String, Object>> services() {
        try {
            Map<String, Object> compose = new Yaml().load(Files.readString(ROOT.resolve("docker-compose.yml")));
            return new LinkedHashMap<>((Map<String, Map<String, Object>>) compose.get("services"));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
