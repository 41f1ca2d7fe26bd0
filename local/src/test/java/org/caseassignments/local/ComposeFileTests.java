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
            String dockerfile = Files.readString(ROOT.resolve(moduleOf(service)).resolve("Dockerfile"));
            assertThat(dockerfile).containsPattern("EXPOSE .*\\b" + port + "\\b")
                    .contains("/dev/tcp/localhost/" + port, "GET /readyz HTTP/1.0");
        }
    }

    @Test
    void shouldBuildImagesWithACachedRepositoryNoHttpClientAndAnExitOnOutOfMemory() throws IOException {
        for (String module : List.of("projector", "mutation-api", "backfill")) {
            String dockerfile = Files.readString(ROOT.resolve(module).resolve("Dockerfile"));
            assertThat(dockerfile).as(module)
                    .startsWith("# syntax=docker/dockerfile:1")
                    .contains("RUN --mount=type=cache,target=/root/.m2 ./mvnw")
                    .contains("\"-XX:+ExitOnOutOfMemoryError\"")
                    .doesNotContain("curl", "apt-get");
        }
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
            String dockerfile = Files.readString(ROOT.resolve(moduleOf(service)).resolve("Dockerfile"));
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

    private Set<Integer> listeningPorts(String service) {
        Map<String, Object> env = environment(service);
        Set<Integer> ports = new HashSet<>();
        switch (service) {
            case "kafka" -> addPorts(ports, env.get("KAFKA_LISTENERS"));
            case "schema-registry" -> addPorts(ports, env.get("SCHEMA_REGISTRY_LISTENERS"));
            case "postgres" -> ports.add(5432);
            case "projector" -> ports.add(Integer.parseInt(String.valueOf(env.get("PROJECTOR_PORT"))));
            case "mutation-api" -> ports.add(Integer.parseInt(String.valueOf(env.get("MUTATION_API_PORT"))));
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

    private String moduleOf(String service) {
        @SuppressWarnings("unchecked")
        Map<String, Object> build = (Map<String, Object>) services.get(service).get("build");
        return Path.of(String.valueOf(build.get("dockerfile"))).getParent().toString();
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
