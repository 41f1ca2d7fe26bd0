package org.caseassignments.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.env.MapPropertySource;

/**
 * A {@link RealDatabaseTest}'s properties sit under a class's own {@code @DynamicPropertySource} values, whichever
 * Spring applies first, and over everything else.
 */
class RealDatabaseTestTests {

    private static final String DYNAMIC = "Dynamic Test Properties";

    @Test
    void shouldLetTheClassesOwnDynamicPropertiesWinWhenTheyWereAddedFirst() {
        GenericApplicationContext context = new GenericApplicationContext();
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource(DYNAMIC, Map.of("pool", "10")));

        new RealDatabaseContextCustomizerFactory.Customizer(Map.of("pool", "6", "url", "jdbc:test")).customizeContext(context, null);

        assertThat(context.getEnvironment().getProperty("pool")).isEqualTo("10");
        assertThat(context.getEnvironment().getProperty("url")).isEqualTo("jdbc:test");
    }

    @Test
    void shouldComeBeforeTheApplicationsOwnPropertiesWhenTheClassHasNoneOfItsOwn() {
        GenericApplicationContext context = new GenericApplicationContext();
        context.getEnvironment().getPropertySources().addLast(new MapPropertySource("application", Map.of("pool", "2")));

        new RealDatabaseContextCustomizerFactory.Customizer(Map.of("pool", "6")).customizeContext(context, null);
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource(DYNAMIC, Map.of("other", "x")));

        assertThat(context.getEnvironment().getProperty("pool")).isEqualTo("6");
    }
}
