package org.caseassignments.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.core.annotation.AliasFor;
import org.springframework.test.context.ContextCustomizerFactories;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A {@code @SpringBootTest} against the real PostgreSQL and Kafka: the application's datasource points at the
 * test class's own database — the one {@code static final TestDatabase} field the class declares — and, unless
 * {@link #kafka()} is false, Spring Kafka at the test broker ({@link TestKafka}). A class still declares its own
 * {@code @DynamicPropertySource} for what only it sets; those properties win over these.
 *
 * <pre>{@code
 * @RealDatabaseTest
 * class VerifyCommandIntegrationTests {
 *     static final TestDatabase DB = TestDatabase.migrated();
 * }
 * }</pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@SpringBootTest
@ContextCustomizerFactories(RealDatabaseContextCustomizerFactory.class)
public @interface RealDatabaseTest {

    @AliasFor(annotation = SpringBootTest.class)
    SpringBootTest.WebEnvironment webEnvironment() default SpringBootTest.WebEnvironment.MOCK;

    @AliasFor(annotation = SpringBootTest.class)
    String[] properties() default {};

    /** Whether {@code spring.kafka.bootstrap-servers} names the test broker (which starts it if it has not). */
    boolean kafka() default true;

    /** What a module's applications need beside the database (a token issuer, a secret), set for every test. */
    Class<? extends Properties> with() default Properties.class;

    /**
     * A module's own test properties, given the test class's database. Implementations have a public no-argument
     * constructor.
     */
    interface Properties {

        default void register(DynamicPropertyRegistry registry, TestDatabase database) {
        }
    }
}
