package org.caseassignments.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * The alerting rules run through Prometheus's own tools: {@code promtool check rules} and {@code promtool test
 * rules} with the unit tests under {@code ops/prometheus/tests/}, one per rules file, in which every alert has a
 * case where it fires and one where it stays silent. promtool is taken from {@code PROMTOOL} or the PATH;
 * {@code .ci/run} installs it, so CI always runs these. Without it they are left out, and the build says so on
 * its console.
 */
class AlertRuleTests {

    @Test
    void shouldPassPromtoolsCheckAndEveryRuleUnitTest() throws IOException, InterruptedException {
        Path promtool = promtool();
        Path prometheus = OpsDefinitions.root().resolve("prometheus");
        List<String> rules = files(prometheus, ".rules.yml");
        List<String> tests = files(prometheus.resolve("tests"), ".test.yml");

        run(promtool, prometheus, Stream.concat(Stream.of("check", "rules"), rules.stream()).toList());
        run(promtool, prometheus.resolve("tests"), Stream.concat(Stream.of("test", "rules"), tests.stream()).toList());
    }

    @Test
    @SuppressWarnings("unchecked")
    void shouldTestEveryAlertFiringAndSilent() throws IOException {
        Path prometheus = OpsDefinitions.root().resolve("prometheus");
        List<String> problems = new ArrayList<>();
        for (String rules : files(prometheus, ".rules.yml")) {
            Path test = prometheus.resolve("tests").resolve(rules.replace(".rules.yml", ".test.yml"));
            if (!Files.exists(test)) {
                problems.add(rules + ": no " + prometheus.relativize(test));
                continue;
            }
            Map<String, Object> unit = new Yaml().load(Files.readString(test));
            assertThat((List<String>) unit.get("rule_files")).as(test.toString()).containsExactly("../" + rules);
            List<Map<String, Object>> cases = new ArrayList<>();
            for (Map<String, Object> testCase : (List<Map<String, Object>>) unit.get("tests")) {
                cases.addAll((List<Map<String, Object>>) testCase.getOrDefault("alert_rule_test", List.of()));
            }
            for (Map<String, Object> rule : OpsDefinitions.alertRules(prometheus.resolve(rules))) {
                Object alert = rule.get("alert");
                List<Map<String, Object>> own = cases.stream().filter(c -> alert.equals(c.get("alertname"))).toList();
                if (own.stream().noneMatch(c -> !((List<?>) c.get("exp_alerts")).isEmpty())) {
                    problems.add(alert + ": no case in " + test.getFileName() + " where it fires");
                }
                if (own.stream().noneMatch(c -> ((List<?>) c.get("exp_alerts")).isEmpty())) {
                    problems.add(alert + ": no case in " + test.getFileName() + " where it stays silent");
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    /** promtool from {@code PROMTOOL} (which must then work) or the PATH; none: the rule tests are left out. */
    private static Path promtool() {
        String configured = System.getenv("PROMTOOL");
        if (configured != null && !configured.isBlank()) {
            Path path = Path.of(configured);
            assertThat(Files.isExecutable(path)).as("PROMTOOL=" + configured + " is not an executable file").isTrue();
            return path;
        }
        Optional<Path> onPath = Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                .filter(dir -> !dir.isBlank()).map(dir -> Path.of(dir, "promtool")).filter(Files::isExecutable)
                .findFirst();
        if (onPath.isEmpty()) {
            String message = "promtool is not on the PATH: the alert rule tests (ops/prometheus/tests) were LEFT OUT. "
                    + "CI runs them; to run them here, put promtool (Debian's prometheus package) on the PATH.";
            System.out.println("[WARNING] " + message);
            Assumptions.abort(message);
        }
        return onPath.get();
    }

    private static void run(Path promtool, Path dir, List<String> arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(promtool.toString()));
        command.addAll(arguments);
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as(String.join(" ", command) + " did not end").isTrue();
        assertThat(process.exitValue()).as(String.join(" ", command) + " in " + dir + ":\n" + output).isZero();
    }

    private static List<String> files(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).filter(f -> f.endsWith(suffix)).sorted().toList();
        }
    }
}
