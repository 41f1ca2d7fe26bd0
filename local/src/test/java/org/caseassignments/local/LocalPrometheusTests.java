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
        Map<String, Object> config = new Yaml().load(LocalPrometheus.configuration(ROOT, targets));

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
    void shouldFindNoPrometheusOnAPathWithoutOneAndRefuseAPrometheusVariableThatNamesNoExecutable(@TempDir Path empty) {
        assertThat(LocalPrometheus.binary(Map.of("PATH", empty.toString()))).isEmpty();
        assertThatThrownBy(() -> LocalPrometheus.binary(Map.of("PROMETHEUS", empty.resolve("prometheus").toString())))
                .hasMessageContaining("PROMETHEUS=").hasMessageContaining("not an executable file");
    }
}
