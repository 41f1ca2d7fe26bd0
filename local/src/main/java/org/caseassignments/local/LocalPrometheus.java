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
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

/**
 * Prometheus beside the local stack ({@code ./run --observe}): the binary an operator installed (Debian's
 * {@code prometheus} package, or any other), scraping both services on their management ports every few seconds and
 * evaluating the shipped alerting rules, so the dashboards' queries and the alerts can be seen working; and, when one
 * is installed too, a Pushgateway it scrapes, to which the backfill jobs push their meters, as in production.
 */
final class LocalPrometheus {

    /** Names the binary; otherwise {@code prometheus} on the PATH. */
    static final String BINARY_VARIABLE = "PROMETHEUS";
    /** Names the Pushgateway's binary; otherwise one beside Prometheus's, or on the PATH. */
    static final String PUSHGATEWAY_VARIABLE = "PUSHGATEWAY";
    /** Debian's name for the Pushgateway's binary (package {@code prometheus-pushgateway}), then the project's own. */
    private static final String DEBIAN_PUSHGATEWAY = "prometheus-pushgateway";
    private static final List<String> PUSHGATEWAY_NAMES = List.of(DEBIAN_PUSHGATEWAY, "pushgateway");
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
        return configured(environment, BINARY_VARIABLE)
                .or(() -> onPath(environment, List.of("prometheus")));
    }

    /**
     * The Pushgateway's binary: the one {@code PUSHGATEWAY} names (which must then be one), else one in Prometheus's
     * own folder (where Debian's packages put both), else one on the PATH, else none.
     */
    static Optional<Path> pushgatewayBinary(Map<String, String> environment, Path prometheus) {
        return configured(environment, PUSHGATEWAY_VARIABLE)
                .or(() -> PUSHGATEWAY_NAMES.stream().map(name -> prometheus.resolveSibling(name))
                        .filter(Files::isExecutable).findFirst())
                .or(() -> onPath(environment, PUSHGATEWAY_NAMES));
    }

    private static Optional<Path> configured(Map<String, String> environment, String variable) {
        String configured = environment.get(variable);
        if (configured == null || configured.isBlank()) {
            return Optional.empty();
        }
        Path path = Path.of(configured);
        if (!Files.isExecutable(path)) {
            throw new IllegalStateException(variable + "=" + configured + " is not an executable file");
        }
        return Optional.of(path);
    }

    private static Optional<Path> onPath(Map<String, String> environment, List<String> names) {
        return names.stream().flatMap(name -> Stream.of(environment.getOrDefault("PATH", "").split(File.pathSeparator))
                        .filter(dir -> !dir.isBlank()).map(dir -> Path.of(dir, name)))
                .filter(Files::isExecutable).findFirst();
    }

    /**
     * Starts Prometheus on {@code port}, its configuration and data under {@code dataDir/prometheus}, and waits until it
     * is ready. One that exits or never gets ready (its storage locked by another Prometheus, a path it cannot use) is
     * stopped and said in one line to {@code step}: the stack goes on without it.
     *
     * @param targets the management port of each application, by the {@code application} label the alerts select
     * @param pushgateway the port of the Pushgateway the jobs push to, scraped as the application {@code backfill};
     *                    null when none runs
     * @return Prometheus, ready; empty when it did not get ready
     */
    static Optional<ServiceProcess> startReady(Path binary, Path root, Path dataDir, int port, Map<String, Integer> targets,
            Integer pushgateway, Path logDir, UnaryOperator<ServiceProcess> track, Consumer<String> step)
            throws IOException, InterruptedException {
        Path home = dataDir.resolve("prometheus").toAbsolutePath();
        Files.createDirectories(home);
        Path config = home.resolve("prometheus.yml");
        Files.writeString(config, configuration(root.toAbsolutePath().normalize(), targets, pushgateway));
        return awaitOrGoOn("Prometheus", ChildProcess.start("prometheus", List.of(binary.toString(),
                "--config.file=" + config, "--storage.tsdb.path=" + home.resolve("data"),
                "--web.listen-address=localhost:" + port), Map.of(), logDir), port, track, step);
    }

    /**
     * Starts the Pushgateway on {@code port}, keeping what the jobs pushed in {@code dataDir/pushgateway} across
     * restarts (as compose's does on its volume), and waits until it is ready; one that is not is stopped and said in
     * one line to {@code step}, and the stack goes on without it.
     *
     * @return the Pushgateway, ready; empty when it did not get ready
     */
    static Optional<ServiceProcess> startPushgateway(Path binary, Path dataDir, int port, Path logDir,
            UnaryOperator<ServiceProcess> track, Consumer<String> step) throws IOException, InterruptedException {
        Path home = Files.createDirectories(dataDir.resolve("pushgateway").toAbsolutePath());
        return awaitOrGoOn("the Pushgateway", ChildProcess.start("pushgateway", pushgatewayCommand(binary, home, port),
                Map.of(), logDir), port, track, step);
    }

    /** The Pushgateway's command line, keeping its groups in {@code home/metrics}. */
    static List<String> pushgatewayCommand(Path binary, Path home, int port) {
        List<String> command = new java.util.ArrayList<>(List.of(binary.toString(), "--web.listen-address=localhost:" + port,
                "--persistence.file=" + home.resolve("metrics"), "--persistence.interval=5s"));
        // Debian's binary looks for its web page's files in /usr/share; a package unpacked elsewhere has them beside it.
        // The project's own pushgateway embeds them and knows no such flag.
        Path assets = binary.toAbsolutePath().getParent().resolveSibling("share/prometheus/pushgateway");
        if (binary.getFileName().toString().equals(DEBIAN_PUSHGATEWAY) && Files.isDirectory(assets)) {
            command.add("--web.local-assets=" + assets);
        }
        return command;
    }

    /**
     * Both answer {@code /-/ready} once they serve. {@code track} takes the process as soon as it started, before it is
     * ready, so that whoever stops the stack meanwhile stops it too.
     */
    private static Optional<ServiceProcess> awaitOrGoOn(String what, ChildProcess process, int port,
            UnaryOperator<ServiceProcess> track, Consumer<String> step) throws InterruptedException {
        ServiceProcess server = track.apply(ServiceProcess.of(what, process, URI.create("http://localhost:" + port + "/-/ready")));
        try {
            server.awaitReady();
            return Optional.of(server);
        } catch (IllegalStateException notReady) {
            server.close();
            step.accept("--observe: " + notReady.getMessage() + "; going on without " + what);
            return Optional.empty();
        } catch (InterruptedException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /**
     * The configuration of {@code ops/prometheus/prometheus.yml} (compose's) for this machine: the same rules files,
     * the same {@code application} labels, the targets on localhost, the Pushgateway (when one runs) scraped as
     * compose's is, and the runbooks in this checkout.
     */
    static String configuration(Path root, Map<String, Integer> targets, Integer pushgateway) {
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
        List<Map<String, Object>> jobs = new java.util.ArrayList<>(List.of(job));
        if (pushgateway != null) {
            // the jobs' own labels (job, command, instance) stay as pushed: they are what the jobs dashboard and
            // BackfillJobFailed group by
            Map<String, Object> pushed = new LinkedHashMap<>();
            pushed.put("job_name", "case-assignments-jobs");
            pushed.put("honor_labels", true);
            pushed.put("static_configs", List.of(Map.of("targets", List.of("localhost:" + pushgateway),
                    "labels", Map.of("application", "backfill"))));
            jobs.add(pushed);
        }
        config.put("scrape_configs", jobs);
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return new Yaml(options).dump(config);
    }
}
