package org.caseassignments.api.policy;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class PolicyConfiguration {

    @Bean
    RulesetRegistry rulesetRegistry(PolicyProperties properties) {
        return new RulesetRegistry(properties.directoryPath());
    }

    @Bean
    RulesetWatcher rulesetWatcher(RulesetRegistry registry, PolicyProperties properties) {
        return new RulesetWatcher(registry, properties.reloadInterval());
    }

    @Bean
    PolicyEngine policyEngine(RulesetRegistry registry, MeterRegistry meters) {
        return new PolicyEngine(registry, meters);
    }

    /** {@code /actuator/info} shows which version of each jurisdiction's ruleset is serving. */
    @Bean
    InfoContributor rulesetVersions(RulesetRegistry registry) {
        return builder -> builder.withDetail("rulesets", registry.versions());
    }
}
