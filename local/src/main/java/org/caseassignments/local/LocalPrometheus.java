package org.caseassignments.local;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Prometheus beside the local stack ({@code ./run --observe}): the binary an operator installed (Debian's
 * {@code prometheus} package, or any other), scraping both services on their management ports every few seconds and
 * evaluating the shipped alerting rules, so the dashboards' queries and the alerts can be seen working.
 */
final class LocalPrometheus {

    /** Names the binary; otherwise {@code prometheus} on the PATH. */
    static final String BINARY_VARIABLE = "PROMETHEUS";
    /** Short, so that a rate has points within a minute of the start. */
    static final String SCRAPE_INTERVAL = "2s";

    private LocalPrometheus() {
    }

    /** The binary {@code PROMETHEUS} names (which must then be one), else {@code prometheus} on the PATH, else none. */
    static Optional<Path> binary(Map<String, String> environment) {
        String configured = environment.get(BINARY_VARIABLE);
        if (configured != null && !configured.isBlank()) {
            Path path = Path.of(configured);
            if (!Files.isExecutable(path)) {
                throw new IllegalStateException(BINARY_VARIABLE + "=" + configured + " is not an executable file");
            }
            return Optional.of(path);
        }
        return Stream.of(environment.getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(dir -> !dir.isBlank()).map(dir -> Path.of(dir, "prometheus")).filter(Files::isExecutable)
                .findFirst();
    }

    /**
     * Starts Prometheus on {@code port}, its configuration and data under {@code dataDir/prometheus}.
     *
     * @param targets the management port of each application, by the {@code application} label the alerts select
     */
    static ServiceProcess start(Path binary, Path root, Path dataDir, int port, Map<String, Integer> targets, Path logDir)
            throws IOException {
        Path home = dataDir.resolve("prometheus").toAbsolutePath();
        Files.createDirectories(home);
        Path config = home.resolve("prometheus.yml");
        Files.writeString(config, configuration(root.toAbsolutePath().normalize(), targets));
        ChildProcess process = ChildProcess.start("prometheus", List.of(binary.toString(),
                "--config.file=" + config, "--storage.tsdb.path=" + home.resolve("data"),
                "--web.listen-address=localhost:" + port), Map.of(), logDir);
        return ServiceProcess.of("prometheus", process, URI.create("http://localhost:" + port + "/-/ready"));
    }

    /**
     * The configuration of {@code ops/prometheus/prometheus.yml} (compose's) for this machine: the same rules files,
     * the same {@code application} labels, the targets on localhost, and the runbooks in this checkout.
     */
    static String configuration(Path root, Map<String, Integer> targets) {
        String staticConfigs = targets.entrySet().stream()
                .map(t -> "      - {targets: ['localhost:%d'], labels: {application: %s}}".formatted(t.getValue(), t.getKey()))
                .collect(Collectors.joining("\n"));
        return """
                global:
                  scrape_interval: %s
                  evaluation_interval: %s
                  external_labels:
                    runbook_base: '%s'
                rule_files:
                  - '%s'
                scrape_configs:
                  - job_name: case-assignments
                    metrics_path: /actuator/prometheus
                    static_configs:
                %s
                """.formatted(SCRAPE_INTERVAL, SCRAPE_INTERVAL, root.toUri().toString().replaceAll("/$", ""),
                root.resolve("ops/prometheus").resolve("*.rules.yml"), staticConfigs);
    }
}
