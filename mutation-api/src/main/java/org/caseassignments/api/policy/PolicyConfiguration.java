package org.caseassignments.api.policy;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

@Configuration(proxyBeanMethods = false)
class PolicyConfiguration {

    /** Vets rulesets against what this build re-reads under the row lock, within the configured budget. */
    @Bean
    RulesetRegistry rulesetRegistry(PolicyProperties properties, ObjectProvider<RulesetArchive> archive) {
        return new RulesetRegistry(properties.directoryPath(),
                new RulesetCompiler(LockableFields.SERVICE, properties.budget()),
                archive.getIfAvailable(() -> RulesetArchive.NONE));
    }

    @Bean
    RulesetWatcher rulesetWatcher(RulesetRegistry registry, PolicyProperties properties) {
        return new RulesetWatcher(registry, properties.reloadInterval());
    }

    @Bean
    PolicyEngine policyEngine(RulesetRegistry registry, MeterRegistry meters,
                              ObjectProvider<CrossJurisdictionReads> crossJurisdictionReads) {
        return new PolicyEngine(registry, meters, crossJurisdictionReads.getIfAvailable(() -> CrossJurisdictionReads.NONE));
    }

    /** {@code /actuator/info} shows which version of each jurisdiction's ruleset is serving. */
    @Bean
    InfoContributor rulesetVersions(RulesetRegistry registry) {
        return builder -> builder.withDetail("rulesets", registry.versions());
    }
}
