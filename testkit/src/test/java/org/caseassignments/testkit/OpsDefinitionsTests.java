package org.caseassignments.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shape of what ships under {@code ops/}: the rules files are Prometheus alerting rules whose
 * expressions read as PromQL and keep the {@code application} label, each alert has a severity, a summary, a
 * description and a runbook that exists in
 * docs/operations.md, and every dashboard panel has an expression that reads as PromQL. That the metrics
 * they name exist is checked against each running service, in its own module.
 */
class OpsDefinitionsTests {

    /** Absolute under the external label {@code runbook_base} when Prometheus has it, relative otherwise. */
    private static final Pattern RUNBOOK = Pattern.compile(
            "\\{\\{ with \\$externalLabels\\.runbook_base }}\\{\\{ \\. }}/\\{\\{ end }}docs/operations\\.md#([a-z0-9-]+)");
    private static final Pattern AGGREGATION_LABELS = Pattern.compile("\\bby \\(([^)]*)\\)");
    private static final Pattern DURATION = Pattern.compile("([0-9]+(ms|s|m|h|d|w|y))+");

    @Test
    void shouldShipADashboardAndRulesForEveryServiceAndNothingElse() throws IOException {
        assertThat(names(OpsDefinitions.root().resolve("grafana"), ".json"))
                .containsExactlyInAnyOrder("projector", "mutation-api", "jobs");
        assertThat(names(OpsDefinitions.root().resolve("prometheus"), ".rules.yml"))
                .containsExactlyInAnyOrder("projector", "mutation-api", "jobs");
    }

    @Test
    void shouldGiveEveryAlertAReadableExpressionASeverityASummaryAndARunbookThatExists() throws IOException {
        Set<String> anchors = OpsDefinitions.headingAnchors(OpsDefinitions.root().resolveSibling("docs/operations.md"));
        List<String> problems = new ArrayList<>();
        Set<String> alerts = new HashSet<>();
        for (String service : List.of("projector", "mutation-api", "jobs")) {
            for (Map<String, Object> rule : OpsDefinitions.alertRules(OpsDefinitions.rules(service))) {
                String alert = String.valueOf(rule.get("alert"));
                if (!alerts.add(alert)) {
                    problems.add(alert + ": named twice");
                }
                try {
                    if (PromQl.metricNames(String.valueOf(rule.get("expr"))).isEmpty()) {
                        problems.add(alert + ": the expression selects no metric");
                    }
                } catch (IllegalArgumentException unreadable) {
                    problems.add(alert + ": " + unreadable.getMessage());
                }
                if (rule.get("for") != null && !DURATION.matcher(String.valueOf(rule.get("for"))).matches()) {
                    problems.add(alert + ": 'for' is no duration");
                }
                Map<?, ?> labels = (Map<?, ?>) rule.get("labels");
                if (labels == null || !List.of("page", "warning").contains(labels.get("severity"))) {
                    problems.add(alert + ": severity is neither page nor warning");
                }
                Map<?, ?> annotations = (Map<?, ?>) rule.get("annotations");
                Matcher runbook = RUNBOOK.matcher(annotations == null ? "" : String.valueOf(annotations.get("runbook_url")));
                if (annotations == null || annotations.get("summary") == null) {
                    problems.add(alert + ": no summary");
                }
                if (annotations == null || annotations.get("description") == null) {
                    problems.add(alert + ": no description");
                }
                Matcher by = AGGREGATION_LABELS.matcher(String.valueOf(rule.get("expr")));
                while (by.find()) {
                    if (!List.of(by.group(1).split(",\\s*")).contains("application")) {
                        problems.add(alert + ": aggregates the application label away: by (" + by.group(1) + ")");
                    }
                }
                if (!runbook.matches()) {
                    problems.add(alert + ": runbook_url is not <runbook_base>/docs/operations.md#<section>");
                } else if (!anchors.contains(runbook.group(1))) {
                    problems.add(alert + ": docs/operations.md has no section #" + runbook.group(1));
                }
                if (!rule.keySet().stream().allMatch(Set.of("alert", "expr", "for", "labels", "annotations")::contains)) {
                    problems.add(alert + ": a key Prometheus does not know in " + rule.keySet());
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(alerts).hasSizeGreaterThanOrEqualTo(21);
    }

    @Test
    void shouldGiveEveryDashboardPanelAReadableExpression() throws IOException {
        List<String> problems = new ArrayList<>();
        for (String service : names(OpsDefinitions.root().resolve("grafana"), ".json")) {
            Map<String, List<String>> panels = OpsDefinitions.panelExpressions(OpsDefinitions.dashboard(service));
            assertThat(panels).as(service).isNotEmpty();
            panels.forEach((title, expressions) -> expressions.forEach(expression -> {
                try {
                    if (PromQl.metricNames(expression).isEmpty()) {
                        problems.add(service + " / " + title + ": selects no metric");
                    }
                } catch (IllegalArgumentException unreadable) {
                    problems.add(service + " / " + title + ": " + unreadable.getMessage());
                }
            }));
        }
        assertThat(problems).isEmpty();
    }

    @Test
    void shouldAnchorHeadingsAsGitHubDoesNumberingRepeatsAndSkippingFencedBlocks(@TempDir Path dir) throws IOException {
        Path page = dir.resolve("page.md");
        Files.writeString(page, """
                # Operations: dashboards, alerts
                ### ProjectorDown
                **Confirm**: not a heading
                ```bash
                # a comment in a block
                ```
                ### Placements outside the gate
                ### ProjectorDown
                """);

        assertThat(OpsDefinitions.headingAnchors(page)).containsExactly("operations-dashboards-alerts", "projectordown",
                "placements-outside-the-gate", "projectordown-1");
    }

    private static List<String> names(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(suffix))
                    .map(f -> f.substring(0, f.length() - suffix.length())).toList();
        }
    }
}
