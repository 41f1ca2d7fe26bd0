package org.caseassignments.api.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import java.util.UUID;

import org.caseassignments.api.policy.ResourceField;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.policy.ResourceType;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemCode;
import org.junit.jupiter.api.Test;

/** The in-memory comparison of the update path: the compared fields, and only those, must be equal. */
class StalenessGateTests {

    private static final UUID ID = UUID.randomUUID();
    private static final ResourceField ADMIN_UNIT = ResourceField.attribute("admin_unit");

    @Test
    void shouldAlwaysCompareTheAssignmentPairAndTheJurisdictionWhateverTheRulesetReads() {
        assertThat(StalenessGate.compared(Set.of()))
                .containsExactly(ResourceField.ASSIGNED_WORKER_SUB, ResourceField.SUPERVISOR_SUB, ResourceField.JURISDICTION);
        assertThat(StalenessGate.compared(Set.of(ADMIN_UNIT))).contains(ADMIN_UNIT, ResourceField.ASSIGNED_WORKER_SUB);
    }

    @Test
    void shouldRefuse409NamingEveryComparedFieldThatDiffers() {
        Set<ResourceField> compared = StalenessGate.compared(Set.of(ADMIN_UNIT, ResourceField.attribute("license_status")));

        assertThatThrownBy(() -> StalenessGate.refuseIfChanged(compared, home("u1", "ACTIVE"), home("u2", "SUSPENDED"),
                "Foster home " + ID))
                .isInstanceOfSatisfying(ApiProblem.class,
                        problem -> assertThat(problem.code()).isEqualTo(ProblemCode.CONCURRENT_MODIFICATION))
                .hasMessageContaining("attrs.admin_unit, attrs.license_status");
    }

    @Test
    void shouldIgnoreAChangeOfAFieldNoRuleReads() {
        Set<ResourceField> compared = StalenessGate.compared(Set.of(ADMIN_UNIT));

        assertThatCode(() -> StalenessGate.refuseIfChanged(compared, home("u1", "ACTIVE"), home("u1", "SUSPENDED"), "x"))
                .doesNotThrowAnyException();
    }

    private static ResourceRef home(String adminUnit, String licenseStatus) {
        return new ResourceRef(ResourceType.FOSTER_HOME, ID, null, null, null,
                Map.of("admin_unit", adminUnit, "license_status", licenseStatus), "georgia");
    }
}
