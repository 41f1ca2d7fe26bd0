package org.caseassignments.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Grafana's file provisioning as shipped under {@code ops/grafana/provisioning/}, read as Grafana reads it: one
 * Prometheus datasource, and dashboard providers of type {@code file} whose path holds the dashboards.
 */
record GrafanaProvisioning(Map<String, Object> datasource, List<String> dashboardPaths) {

    /** The dashboards' own variable for the datasource, which each panel names as its uid. */
    static final String DATASOURCE_VARIABLE = "${datasource}";

    @SuppressWarnings("unchecked")
    static GrafanaProvisioning read(Path datasourcesDir, Path providersDir) {
        List<Map<String, Object>> datasources = new ArrayList<>();
        for (Map<String, Object> file : yamlFiles(datasourcesDir)) {
            assertThat(file.get("apiVersion")).as("apiVersion of the datasources in %s", datasourcesDir).isEqualTo(1);
            datasources.addAll((List<Map<String, Object>>) file.get("datasources"));
        }
        assertThat(datasources).as("datasources provisioned from %s", datasourcesDir).hasSize(1);
        Map<String, Object> datasource = datasources.get(0);
        assertThat(datasource).containsEntry("type", "prometheus").containsKeys("name", "uid", "url");

        List<String> paths = new ArrayList<>();
        for (Map<String, Object> file : yamlFiles(providersDir)) {
            assertThat(file.get("apiVersion")).as("apiVersion of the providers in %s", providersDir).isEqualTo(1);
            for (Map<String, Object> provider : (List<Map<String, Object>>) file.get("providers")) {
                assertThat(provider).as("dashboard provider").containsEntry("type", "file").containsKey("name");
                paths.add(String.valueOf(((Map<String, Object>) provider.get("options")).get("path")));
            }
        }
        assertThat(paths).as("dashboard providers in %s", providersDir).isNotEmpty();
        return new GrafanaProvisioning(datasource, paths);
    }

    /** The dashboards a file provider loads from a folder: its {@code .json} files. */
    static List<Path> dashboards(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode json(Path dashboard) {
        try {
            return new ObjectMapper().readTree(Files.readString(dashboard));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every panel that queries (rows aside), including those folded into a collapsed row. */
    static List<JsonNode> queryPanels(JsonNode dashboard) {
        List<JsonNode> panels = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            if ("row".equals(panel.path("type").asString())) {
                panel.path("panels").forEach(panels::add);
            } else {
                panels.add(panel);
            }
        }
        return panels;
    }

    /**
     * The datasource uids the panels and their queries use, the dashboard's datasource variable replaced by the value
     * it starts with.
     */
    static Set<String> datasourceUids(Path dashboard) {
        JsonNode json = json(dashboard);
        String variable = null;
        for (JsonNode candidate : json.path("templating").path("list")) {
            if ("datasource".equals(candidate.path("type").asString())) {
                variable = candidate.path("current").path("value").asString(null);
            }
        }
        Set<String> uids = new LinkedHashSet<>();
        for (JsonNode panel : queryPanels(json)) {
            List<JsonNode> named = new ArrayList<>(List.of(panel.path("datasource")));
            panel.path("targets").forEach(target -> named.add(target.path("datasource")));
            for (JsonNode datasource : named) {
                String uid = datasource.path("uid").asString(null);
                uids.add(DATASOURCE_VARIABLE.equals(uid) ? variable : uid);
            }
        }
        return uids;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> yamlFiles(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            List<Map<String, Object>> documents = new ArrayList<>();
            for (Path file : files.filter(f -> f.toString().endsWith(".yml") || f.toString().endsWith(".yaml")).sorted().toList()) {
                documents.add((Map<String, Object>) new Yaml().load(Files.readString(file)));
            }
            assertThat(documents).as("provisioning files in %s", dir).isNotEmpty();
            return documents;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
