package org.caseassignments.api.testsupport;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.caseassignments.testkit.RealDatabaseTest;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The mutation API on a random port against the test class's own database (its one {@code static final
 * TestDatabase} field), with {@link TestApplication}'s properties. A class sets what only it needs in its own
 * {@code @DynamicPropertySource}, which wins.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@RealDatabaseTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, kafka = false, with = TestApplication.class)
public @interface ApiIntegrationTest {
}
