package org.caseassignments.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

class LocalPrometheusTests {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    @SuppressWarnings("unchecked")
    void shouldScrapeTheStacksManagementPortsAndLoadExactlyTheShippedRules() throws IOException {
        Map<String, Integer> targets = new LinkedHashMap<>();
        targets.put("projector", 19081);
        targets.put("mutation-api", 19080);
        Map<String, Object> config = new Yaml().load(LocalPrometheus.configuration(ROOT, targets, null));

        assertThat((List<?>) config.get("scrape_configs")).as("without a Pushgateway, the services alone").hasSize(1);
        Map<String, Object> job = ((List<Map<String, Object>>) config.get("scrape_configs")).get(0);
        assertThat(job).containsEntry("metrics_path", "/actuator/prometheus");
        assertThat((List<Map<String, Object>>) job.get("static_configs")).containsExactly(
                Map.of("targets", List.of("localhost:19081"), "labels", Map.of("application", "projector")),
                Map.of("targets", List.of("localhost:19080"), "labels", Map.of("application", "mutation-api")));
        assertThat((Map<String, Object>) ((Map<String, Object>) config.get("global")).get("external_labels"))
                .containsEntry("runbook_base", ROOT.toUri().toString().replaceAll("/$", ""));

        List<String> patterns = (List<String>) config.get("rule_files");
        assertThat(patterns).hasSize(1);
        PathMatcher glob = FileSystems.getDefault().getPathMatcher("glob:" + patterns.get(0));
        try (Stream<Path> files = Files.list(ROOT.resolve("ops/prometheus"))) {
            List<Path> all = files.toList();
            assertThat(all.stream().filter(glob::matches).toList()).as("the rules files loaded")
                    .isNotEmpty()
                    .containsExactlyInAnyOrderElementsOf(all.stream().filter(f -> f.toString().endsWith(".rules.yml")).toList());
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldScrapeThePushgatewayAsTheBackfillApplicationKeepingTheLabelsTheJobsPushed() {
        Map<String, Object> config = new Yaml().load(LocalPrometheus.configuration(ROOT, Map.of("projector", 19081), 19091));

        List<Map<String, Object>> jobs = (List<Map<String, Object>>) config.get("scrape_configs");
        assertThat(jobs).hasSize(2);
        assertThat(jobs.get(1)).as("as ops/prometheus/prometheus.yml scrapes compose's Pushgateway")
                .containsEntry("honor_labels", true)
                .containsEntry("static_configs", List.of(Map.of("targets", List.of("localhost:19091"),
                        "labels", Map.of("application", "backfill"))));
    }

    @Test
    void shouldFindThePushgatewayBesidePrometheusThenOnThePathAndRefuseAVariableThatNamesNoExecutable(@TempDir Path dir)
            throws IOException {
        // Given Debian's layout: both binaries in one folder, which is not on the PATH
        Path debian = Files.createDirectories(dir.resolve("usr/bin"));
        Path prometheus = executable(debian.resolve("prometheus"));
        Path pushgateway = executable(debian.resolve("prometheus-pushgateway"));
        Path elsewhere = Files.createDirectories(dir.resolve("elsewhere"));
        Path onPath = executable(elsewhere.resolve("pushgateway"));
        Path empty = Files.createDirectories(dir.resolve("empty"));

        assertThat(LocalPrometheus.pushgatewayBinary(Map.of("PATH", elsewhere.toString()), prometheus)).contains(pushgateway);
        assertThat(LocalPrometheus.pushgatewayBinary(Map.of("PATH", elsewhere.toString()), empty.resolve("prometheus")))
                .contains(onPath);
        assertThat(LocalPrometheus.pushgatewayBinary(Map.of("PATH", empty.toString()), empty.resolve("prometheus"))).isEmpty();
        assertThat(LocalPrometheus.pushgatewayBinary(Map.of("PUSHGATEWAY", onPath.toString()), prometheus)).contains(onPath);
        assertThatThrownBy(() -> LocalPrometheus.pushgatewayBinary(Map.of("PUSHGATEWAY", empty.resolve("x").toString()),
                prometheus)).hasMessageContaining("PUSHGATEWAY=").hasMessageContaining("not an executable file");
    }

    @Test
    void shouldPointOnlyDebiansPushgatewayAtTheWebAssetsUnpackedBesideIt(@TempDir Path dir) throws IOException {
        // Given Debian's package unpacked: its binary, its web page's files, and the project's own binary beside it
        Path bin = Files.createDirectories(dir.resolve("usr/bin"));
        Path assets = Files.createDirectories(dir.resolve("usr/share/prometheus/pushgateway"));
        Path debian = executable(bin.resolve("prometheus-pushgateway"));
        Path upstream = executable(bin.resolve("pushgateway"));

        assertThat(LocalPrometheus.pushgatewayCommand(debian, dir, 19091)).contains("--web.local-assets=" + assets);
        assertThat(LocalPrometheus.pushgatewayCommand(upstream, dir, 19091))
                .noneMatch(argument -> argument.startsWith("--web.local-assets"))
                .contains("--persistence.file=" + dir.resolve("metrics"));
    }

    private static Path executable(Path file) throws IOException {
        Files.writeString(file, "#!/bin/sh\n");
        assertThat(file.toFile().setExecutable(true)).isTrue();
        return file;
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldWriteACheckoutPathWithQuotesAndColonsIntoTheConfigurationAsItIs(@TempDir Path parent) throws IOException {
        Path root = Files.createDirectories(parent.resolve("it's a: checkout # here"));
        Map<String, Object> config = new Yaml().load(LocalPrometheus.configuration(root, Map.of("projector", 19081), null));

        assertThat((List<String>) config.get("rule_files")).containsExactly(root.resolve("ops/prometheus/*.rules.yml").toString());
        assertThat((Map<String, Object>) ((Map<String, Object>) config.get("global")).get("external_labels"))
                .containsEntry("runbook_base", root.toUri().toString().replaceAll("/$", ""));
    }

    @Test
    void shouldSayInOneLineAndGoOnWhenPrometheusExitsBeforeItIsReady(@TempDir Path dir) throws Exception {
        // as Prometheus does when another one holds the lock on its storage
        Path exits = dir.resolve("prometheus");
        Files.writeString(exits, "#!/bin/sh\necho 'opening storage failed: lock DB directory: resource temporarily unavailable' >&2\nexit 1\n");
        assertThat(exits.toFile().setExecutable(true)).isTrue();
        List<String> steps = new java.util.ArrayList<>();
        int port;
        try (var free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }

        var started = LocalPrometheus.startReady(exits, ROOT, dir.resolve("data"), port, Map.of("projector", 19081),
                null, dir.resolve("logs"), process -> process, steps::add);

        assertThat(started).isEmpty();
        assertThat(steps).singleElement().asString().startsWith("--observe: prometheus exited with code 1")
                .contains(dir.resolve("logs").toString()).endsWith("going on without Prometheus");
    }

    @Test
    void shouldFindNoPrometheusOnAPathWithoutOneAndRefuseAPrometheusVariableThatNamesNoExecutable(@TempDir Path empty) {
        assertThat(LocalPrometheus.binary(Map.of("PATH", empty.toString()))).isEmpty();
        assertThatThrownBy(() -> LocalPrometheus.binary(Map.of("PROMETHEUS", empty.resolve("prometheus").toString())))
                .hasMessageContaining("PROMETHEUS=").hasMessageContaining("not an executable file");
    }
}
