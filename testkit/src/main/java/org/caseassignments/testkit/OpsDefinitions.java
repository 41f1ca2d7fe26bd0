package org.caseassignments.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * The operations definitions shipped under {@code ops/}: one Grafana dashboard per service
 * ({@code ops/grafana/<service>.json}) and its Prometheus alerting rules
 * ({@code ops/prometheus/<service>.rules.yml}). A service's test scrapes the running service and checks
 * that every metric these name is in the scrape, so a renamed or removed meter fails the build instead of
 * leaving an empty panel or an alert that can never fire.
 */
public final class OpsDefinitions {

    /**
     * Series Prometheus itself writes for every target it scrapes, and the Pushgateway for every group pushed to it;
     * no service exposes them.
     */
    private static final Set<String> PER_TARGET_SERIES = Set.of("up", "scrape_duration_seconds",
            "scrape_samples_scraped", "scrape_samples_post_metric_relabeling", "scrape_series_added",
            "push_time_seconds", "push_failure_time_seconds");
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)[{ ]", Pattern.MULTILINE);

    private OpsDefinitions() {
    }

    /** The repository's {@code ops/} folder, found from the working directory (a module's or the root). */
    public static Path root() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isDirectory(dir.resolve("ops/grafana")) && Files.isDirectory(dir.resolve("ops/prometheus"))) {
                return dir.resolve("ops");
            }
        }
        throw new IllegalStateException("No ops/grafana and ops/prometheus above " + Path.of("").toAbsolutePath());
    }

    public static Path dashboard(String service) {
        return root().resolve("grafana").resolve(service + ".json");
    }

    public static Path rules(String service) {
        return root().resolve("prometheus").resolve(service + ".rules.yml");
    }

    /** Every PromQL expression of a dashboard's panels, by panel title. */
    public static Map<String, List<String>> panelExpressions(Path dashboard) {
        JsonNode json = new ObjectMapper().readTree(read(dashboard));
        Map<String, List<String>> expressions = new java.util.LinkedHashMap<>();
        for (JsonNode panel : json.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                expressions.computeIfAbsent(panel.path("title").asString(), t -> new ArrayList<>())
                        .add(target.path("expr").asString());
            }
        }
        return expressions;
    }

    /** The alerting rules of a rules file, as Prometheus reads it: groups of rules. */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> alertRules(Path rules) {
        Map<String, Object> document = new Yaml().load(read(rules));
        List<Map<String, Object>> all = new ArrayList<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) document.get("groups")) {
            all.addAll((List<Map<String, Object>>) group.get("rules"));
        }
        return all;
    }

    /**
     * The metric names a service's dashboard panels and alert expressions (if it has rules) select, but the series
     * Prometheus writes itself for each target ({@code up}).
     */
    public static Set<String> metricNames(String service) {
        Set<String> names = new TreeSet<>();
        panelExpressions(dashboard(service)).values().forEach(exprs -> exprs.forEach(e -> names.addAll(PromQl.metricNames(e))));
        if (Files.exists(rules(service))) {
            alertRules(rules(service)).forEach(rule -> names.addAll(PromQl.metricNames(String.valueOf(rule.get("expr")))));
        }
        names.removeAll(PER_TARGET_SERIES);
        return names;
    }

    /**
     * The anchors GitHub gives a Markdown page's headings, which a link's {@code #fragment} names: lower case, spaces to
     * hyphens, other punctuation dropped, and {@code -1}, {@code -2} … after a heading's repeats. Lines in fenced
     * blocks are not headings.
     */
    public static Set<String> headingAnchors(Path markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        boolean fenced = false;
        for (String line : read(markdown).split("\n")) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
            } else if (!fenced && line.matches("#{1,6} .*")) {
                String anchor = line.replaceFirst("^#+\\s*", "").strip().toLowerCase(java.util.Locale.ROOT)
                        .replaceAll("[^a-z0-9 _-]", "").replace(' ', '-');
                String unique = anchor;
                for (int repeat = 1; !anchors.add(unique); repeat++) {
                    unique = anchor + "-" + repeat;
                }
            }
        }
        return anchors;
    }

    /** The metric names of a Prometheus text exposition ({@code /actuator/prometheus}): every sample's name. */
    public static Set<String> exposed(String scrape) {
        Set<String> names = new LinkedHashSet<>();
        Matcher sample = SAMPLE.matcher(scrape);
        while (sample.find()) {
            names.add(sample.group(1));
        }
        return names;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + file, e);
        }
    }
}
