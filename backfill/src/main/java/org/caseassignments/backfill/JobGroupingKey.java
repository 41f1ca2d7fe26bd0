package org.caseassignments.backfill;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.regex.Pattern;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * The Pushgateway group of a job: its subcommand (a dry run's named apart) and host, so that jobs running at the
 * same time (a replay and a repair, or one on each of two hosts) push to groups of their own instead of overwriting
 * one. The lowest
 * precedence of all settings: an operator's {@code grouping-key} entries win.
 */
final class JobGroupingKey implements EnvironmentPostProcessor {

    static final String PREFIX = "management.prometheus.metrics.export.pushgateway.grouping-key.";
    private static final Pattern SUBCOMMAND = Pattern.compile("[a-z][a-z-]{0,40}");

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        String arguments = environment.getProperty("nonOptionArgs", "");
        String first = arguments.split(",", 2)[0].strip();
        environment.getPropertySources().addLast(new MapPropertySource("backfill-job-grouping-key", Map.of(
                PREFIX + "command", SUBCOMMAND.matcher(first).matches() ? first + dryRun(environment) : "none",
                PREFIX + "instance", host())));
    }

    /**
     * A dry run is a group of its own ({@code replay-dry-run}): what it pushes must not replace the last exit code
     * and meters of the runs of its subcommand, which the alerts and the jobs dashboard read.
     */
    private static String dryRun(ConfigurableEnvironment environment) {
        return environment.containsProperty("dry-run") ? "-dry-run" : "";
    }

    private static String host() {
        String configured = System.getenv("HOSTNAME");
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "unknown";
        }
    }
}
