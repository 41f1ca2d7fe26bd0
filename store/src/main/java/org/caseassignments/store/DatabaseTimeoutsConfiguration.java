package org.caseassignments.store;

import com.zaxxer.hikari.HikariDataSource;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Every deployable's pool takes {@link DatabaseTimeouts} (an auto-configuration, listed in
 * {@code META-INF/spring/…AutoConfiguration.imports}, so the projector, the mutation API and the backfill jobs all do):
 * read once from the deployable's own property sources when the context starts, so a refused timeout stops the start, and set on the pool
 * after Spring Boot bound {@code spring.datasource.hikari.*} to it, before it opens a connection.
 */
@Configuration(proxyBeanMethods = false)
class DatabaseTimeoutsConfiguration {

    @Bean
    static BeanPostProcessor databaseTimeoutsOnThePool(ConfigurableEnvironment environment) {
        DatabaseTimeouts timeouts = DatabaseTimeouts.boundFrom(environment);
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                if (bean instanceof HikariDataSource pool) {
                    timeouts.applyTo(pool);
                }
                return bean;
            }
        };
    }
}
