package org.caseassignments.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * No Grafana runs here: its provisioning files are read the way Grafana reads them, and each dashboard is held to
 * the fields Grafana needs to load it and draw its panels.
 */
class GrafanaProvisioningTests {

    private static final Path GRAFANA = Path.of("..").toAbsolutePath().normalize().resolve("ops/grafana");

    @Test
    void shouldLoadTheThreeDashboardsWithTheFieldsGrafanaNeeds() {
        GrafanaProvisioning provisioning = GrafanaProvisioning.read(GRAFANA.resolve("provisioning/datasources"),
                GRAFANA.resolve("provisioning/dashboards"));
        assertThat(provisioning.dashboardPaths()).hasSize(1);

        List<Path> dashboards = GrafanaProvisioning.dashboards(GRAFANA);
        assertThat(dashboards).extracting(d -> d.getFileName().toString())
                .containsExactly("jobs.json", "mutation-api.json", "projector.json");
        Set<String> uids = new HashSet<>();
        List<String> problems = new ArrayList<>();
        for (Path dashboard : dashboards) {
            JsonNode json = GrafanaProvisioning.json(dashboard);
            String name = dashboard.getFileName().toString();
            for (String field : List.of("uid", "title", "schemaVersion", "panels")) {
                if (json.path(field).isMissingNode() || json.path(field).asString("x").isBlank()) {
                    problems.add(name + ": no " + field);
                }
            }
            if (!uids.add(json.path("uid").asString())) {
                problems.add(name + ": uid " + json.path("uid").asString() + " is another dashboard's too");
            }
            List<JsonNode> panels = GrafanaProvisioning.queryPanels(json);
            if (panels.isEmpty()) {
                problems.add(name + ": no panel that queries");
            }
            for (JsonNode panel : panels) {
                String title = name + " / " + panel.path("title").asString("(untitled)");
                if (panel.path("type").asString("").isBlank() || panel.path("gridPos").isMissingNode()) {
                    problems.add(title + ": no type or gridPos");
                }
                if (panel.path("datasource").path("type").asString("").isBlank()) {
                    problems.add(title + ": no datasource");
                }
                if (panel.path("targets").isEmpty()) {
                    problems.add(title + ": no targets");
                }
                Set<String> refIds = new HashSet<>();
                for (JsonNode target : panel.path("targets")) {
                    if (target.path("expr").asString("").isBlank() || !refIds.add(target.path("refId").asString(""))) {
                        problems.add(title + ": a target without expr or with a missing or repeated refId");
                    }
                }
            }
            assertThat(GrafanaProvisioning.datasourceUids(dashboard)).as(name)
                    .containsOnly(String.valueOf(provisioning.datasource().get("uid")));
        }
        assertThat(problems).isEmpty();
    }
}
