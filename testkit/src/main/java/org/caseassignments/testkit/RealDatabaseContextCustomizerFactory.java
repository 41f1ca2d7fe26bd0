package org.caseassignments.testkit;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.beans.BeanUtils;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.MergedContextConfiguration;

/** Sets, for a {@link RealDatabaseTest}, the properties that point the application at the test's database and broker. */
final class RealDatabaseContextCustomizerFactory implements ContextCustomizerFactory {

    /** The property source of the class's own {@code @DynamicPropertySource} methods, which must stay in front. */
    private static final String DYNAMIC = "Dynamic Test Properties";

    @Override
    public ContextCustomizer createContextCustomizer(Class<?> testClass, List<ContextConfigurationAttributes> configAttributes) {
        MergedAnnotation<RealDatabaseTest> test = MergedAnnotations
                .from(testClass, MergedAnnotations.SearchStrategy.TYPE_HIERARCHY).get(RealDatabaseTest.class);
        if (!test.isPresent()) {
            return null;
        }
        TestDatabase database = databaseOf(testClass);
        Map<String, Object> properties = new LinkedHashMap<>(database.springProperties());
        if (test.getBoolean("kafka")) {
            properties.put("spring.kafka.bootstrap-servers", TestKafka.bootstrapServers());
        }
        Class<?> with = test.getClass("with");
        if (with != RealDatabaseTest.Properties.class) {
            ((RealDatabaseTest.Properties) BeanUtils.instantiateClass(with))
                    .register((name, value) -> properties.put(name, value.get()), database);
        }
        return new Customizer(Map.copyOf(properties));
    }

    private static TestDatabase databaseOf(Class<?> testClass) {
        List<Field> fields = Arrays.stream(testClass.getDeclaredFields())
                .filter(field -> Modifier.isStatic(field.getModifiers()) && field.getType() == TestDatabase.class)
                .toList();
        if (fields.size() != 1) {
            throw new IllegalStateException(testClass.getName() + " is a @RealDatabaseTest and must declare exactly one "
                    + "static TestDatabase field (its database); it declares " + fields.size());
        }
        try {
            Field field = fields.get(0);
            field.setAccessible(true);
            return (TestDatabase) field.get(null);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Equal for equal properties, so Spring's context cache shares a context exactly when it did before. */
    record Customizer(Map<String, Object> properties) implements ContextCustomizer {

        @Override
        public void customizeContext(ConfigurableApplicationContext context, MergedContextConfiguration config) {
            MutablePropertySources sources = context.getEnvironment().getPropertySources();
            MapPropertySource these = new MapPropertySource("Real database test properties", properties);
            if (sources.contains(DYNAMIC)) {
                sources.addAfter(DYNAMIC, these);
            } else {
                sources.addFirst(these);
            }
        }
    }
}
