package org.caseassignments.api.policy;

import java.nio.file.Path;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Ruleset settings ({@code policy.*}); each has an environment-variable override in application.yml.
 *
 * @param directory      a directory of {@code <jurisdiction>.yaml|.yml|.json} files that replace or add to the
 *                       bundled rulesets ({@code POLICY_DIRECTORY}); empty serves the bundled ones only
 * @param reloadInterval how often the directory is re-read ({@code POLICY_RELOAD_INTERVAL}); zero disables reloading
 * @param budget         what one condition may cost, checked at load and enforced at evaluation
 */
@ConfigurationProperties("policy")
public record PolicyProperties(String directory, @DefaultValue("5s") Duration reloadInterval,
                               @DefaultValue EvaluationBudget budget) {

    public PolicyProperties {
        if (reloadInterval.isNegative()) {
            throw new IllegalArgumentException("policy.reload-interval (POLICY_RELOAD_INTERVAL) must not be negative, was "
                    + reloadInterval);
        }
    }

    Path directoryPath() {
        return directory == null || directory.isBlank() ? null : Path.of(directory);
    }
}
