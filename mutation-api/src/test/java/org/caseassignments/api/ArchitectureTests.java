package org.caseassignments.api;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMethod;
import com.tngtech.archunit.core.domain.JavaParameter;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.caseassignments.api.http.RequiresIfMatch;
import org.caseassignments.api.write.Versioned;
import org.caseassignments.testkit.architecture.LockingSql;
import org.caseassignments.testkit.architecture.StoreBoundary;
import org.junit.jupiter.api.Test;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/** Fitness rules: where the version may travel, which writes are conditional, and how features and packages depend. */
@AnalyzeClasses(packages = {"org.caseassignments.api", "org.caseassignments.management"},
        importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTests {

    /** The version travels in ETag and If-Match only: a body field would be a second, competing precondition. */
    @ArchTest
    static final ArchRule requestBodiesCarryNoVersion = methods()
            .that().areDeclaredInClassesThat().areAnnotatedWith(RestController.class)
            .should(takeNoRequestBodyCarryingAVersion());

    @ArchTest
    static final ArchRule requestTypesCarryNoVersion = classes()
            .that().haveSimpleNameEndingWith("Request")
            .should(haveNoVersionField());

    @ArchTest
    static final ArchRule everyPatchAndDeleteIsConditional = methods()
            .that().areAnnotatedWith(PatchMapping.class).or().areAnnotatedWith(DeleteMapping.class)
            .should().beAnnotatedWith(RequiresIfMatch.class)
            .because("a write without If-Match would be last-write-wins");

    @ArchTest
    static final ArchRule featuresDoNotDependOnEachOther = slices()
            .matching("org.caseassignments.api.(placement|kinship|fosterhome)..")
            .should().notDependOnEachOther();

    /** Every package raises problems; the problem documents know nothing of the HTTP conventions that raise them. */
    @ArchTest
    static final ArchRule problemsKnowNothingOfTheHttpConventions = noClasses()
            .that().resideInAPackage("org.caseassignments.api.problem..")
            .should().dependOnClassesThat().resideInAPackage("org.caseassignments.api.http..");

    @ArchTest
    static final ArchRule thePolicyKnowsNothingOfStorage = classes()
            .that().resideInAPackage("..api.policy..")
            .should().onlyDependOnClassesThat().resideOutsideOfPackages("org.springframework.jdbc..",
                    "org.caseassignments.api.write..", "org.caseassignments.api.assignment..", "org.caseassignments.store..");

    /** Decision 1: the API does not connect to Kafka; the build's enforcer rule keeps the jars off its classpath too. */
    @ArchTest
    static final ArchRule theApiKnowsNoKafkaNorAvro = classes()
            .should().onlyDependOnClassesThat().resideOutsideOfPackages("org.apache.kafka..", "org.apache.avro..",
                    "org.caseassignments.schemas..");

    /**
     * Only store locks or writes the tables of the lock order: this module calls its operations (LockingSql, testkit,
     * reads the SQL in each compiled class's string constants).
     */
    @ArchTest
    static final ArchRule onlyStoreLocksOrWritesTheOrderedTables = LockingSql.onlyStoreLocksOrWritesTheOrderedTables();

    /** No package cycles (decision 53): every package, the root and each nested one, is a slice of its own. */
    @ArchTest
    static final ArchRule noPackageCycles = slices().matching("org.caseassignments.(**)")
            .should().beFreeOfCycles();

    @Test
    void shouldCatchARequestBodyThatCarriesAVersion() {
        var violating = new ClassFileImporter().importClasses(LeakyController.class, LeakyUpdateRequest.class);

        assertThat(requestBodiesCarryNoVersion.evaluate(violating).hasViolation()).isTrue();
        assertThat(requestTypesCarryNoVersion.evaluate(violating).hasViolation()).isTrue();
        assertThat(everyPatchAndDeleteIsConditional.evaluate(violating).hasViolation()).isTrue();
    }

    private static ArchCondition<JavaMethod> takeNoRequestBodyCarryingAVersion() {
        return new ArchCondition<>("take no request body that carries a version") {
            @Override
            public void check(JavaMethod method, ConditionEvents events) {
                for (JavaParameter parameter : method.getParameters()) {
                    if (parameter.isAnnotatedWith(RequestBody.class)) {
                        versionFields(parameter.getRawType(), method.getFullName(), events);
                    }
                }
            }
        };
    }

    private static ArchCondition<JavaClass> haveNoVersionField() {
        return new ArchCondition<>("have no version field") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                versionFields(type, type.getName(), events);
            }
        };
    }

    private static void versionFields(JavaClass type, String where, ConditionEvents events) {
        if (type.isAssignableTo(Versioned.class)) {
            events.add(SimpleConditionEvent.violated(type, where + " takes " + type.getName() + ", a Versioned row"));
        }
        for (JavaField field : type.getAllFields()) {
            String name = field.getName().toLowerCase(Locale.ROOT);
            if (name.contains("version") || name.contains("etag")) {
                events.add(SimpleConditionEvent.violated(field, where + " takes " + type.getName()
                        + " whose field " + field.getName() + " carries a version"));
            }
        }
    }

    /** What the rules exist to refuse. */
    record LeakyUpdateRequest(String name, long rowVersion) {
    }

    @RestController
    static class LeakyController {
        @PatchMapping("/leaky/{id}")
        void update(@PathVariable String id, @RequestBody LeakyUpdateRequest request) {
        }
    }

    /** No class is in store's packages, which that rule exempts, nor calls the backfill's rebuild or history purge. */
    @Test
    void shouldKeepOutOfStoresPackagesAndTheBackfillsOperations() {
        // Given this module's compiled classes, When StoreBoundary's rules are checked (testkit), Then they hold
        StoreBoundary.checkThisService();
    }
}
