package org.caseassignments.local;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Prometheus beside the local stack ({@code ./run --observe}): the binary an operator installed (Debian's
 * {@code prometheus} package, or any other), scraping both services on their management ports every few seconds and
 * evaluating the shipped alerting rules, so the dashboards' queries and the alerts can be seen working.
 */
final class LocalPrometheus {

    /** Names the binary; otherwise {@code prometheus} on the PATH. */
    static final String BINARY_VARIABLE = "PROMETHEUS";
    /** Short, so that a one-minute rate has a dozen points, yet not so short that scraping costs a CI runner. */
    static final String SCRAPE_INTERVAL = "5s";

    /**
     * What the local stack sets on both services so that this Prometheus can scrape them: no exemplars. Prometheus
     * before 2.43 (Debian's 2.42, which CI runs) asks for OpenMetrics, with no setting to ask otherwise, and fails the
     * whole scrape of a target with an exemplar on anything but a counter or a histogram bucket, as the traced
     * services' timers carry once they have served a request; and no trace store runs locally for one to lead to.
     */
    static final Map<String, String> SERVICE_ENVIRONMENT = Map.of("SPRING_AUTOCONFIGURE_EXCLUDE",
            "org.springframework.boot.micrometer.tracing.autoconfigure.prometheus.PrometheusExemplarsAutoConfiguration");

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
     * Starts Prometheus on {@code port}, its configuration and data under {@code dataDir/prometheus}, and waits until it
     * is ready. One that exits or never gets ready (its storage locked by another Prometheus, a path it cannot use) is
     * stopped and said in one line to {@code step}: the stack goes on without it.
     *
     * @param targets the management port of each application, by the {@code application} label the alerts select
     * @return Prometheus, ready; empty when it did not get ready
     */
    static Optional<ServiceProcess> startReady(Path binary, Path root, Path dataDir, int port, Map<String, Integer> targets,
            Path logDir, Consumer<String> step) throws IOException, InterruptedException {
        Path home = dataDir.resolve("prometheus").toAbsolutePath();
        Files.createDirectories(home);
        Path config = home.resolve("prometheus.yml");
        Files.writeString(config, configuration(root.toAbsolutePath().normalize(), targets));
        ChildProcess process = ChildProcess.start("prometheus", List.of(binary.toString(),
                "--config.file=" + config, "--storage.tsdb.path=" + home.resolve("data"),
                "--web.listen-address=localhost:" + port), Map.of(), logDir);
        ServiceProcess prometheus = ServiceProcess.of("prometheus", process, URI.create("http://localhost:" + port + "/-/ready"));
        try {
            prometheus.awaitReady();
            return Optional.of(prometheus);
        } catch (IllegalStateException notReady) {
            prometheus.close();
            step.accept("--observe: " + notReady.getMessage() + "; going on without Prometheus");
            return Optional.empty();
        } catch (InterruptedException | RuntimeException e) {
            prometheus.close();
            throw e;
        }
    }

    /**
     * The configuration of {@code ops/prometheus/prometheus.yml} (compose's) for this machine: the same rules files,
     * the same {@code application} labels, the targets on localhost, and the runbooks in this checkout.
     */
    static String configuration(Path root, Map<String, Integer> targets) {
        Map<String, Object> global = new LinkedHashMap<>();
        global.put("scrape_interval", SCRAPE_INTERVAL);
        global.put("evaluation_interval", SCRAPE_INTERVAL);
        global.put("external_labels", Map.of("runbook_base", root.toUri().toString().replaceAll("/$", "")));
        Map<String, Object> job = new LinkedHashMap<>();
        job.put("job_name", "case-assignments");
        job.put("metrics_path", "/actuator/prometheus");
        job.put("static_configs", targets.entrySet().stream()
                .map(t -> Map.of("targets", List.of("localhost:" + t.getValue()), "labels", Map.of("application", t.getKey())))
                .toList());
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("global", global);
        config.put("rule_files", List.of(root.resolve("ops/prometheus").resolve("*.rules.yml").toString()));
        config.put("scrape_configs", List.of(job));
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return new Yaml(options).dump(config);
    }
}
