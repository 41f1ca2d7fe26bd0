package org.caseassignments.api.assignment;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.caseassignments.api.assignment.ProjectionWaitFilter.Written;
import org.caseassignments.api.http.CaseScopedResource;
import org.junit.jupiter.api.Test;

/** The filter that holds a write for the projection finds each case-scoped resource at the paths it is mapped at. */
class ProjectionWaitFilterPathsTests {

    private static final String CASE_ID = "6f1c2a4e-0d5b-4c1e-9a3f-1b2c3d4e5f60";
    private static final String RECORD_ID = UUID.randomUUID().toString();

    @Test
    void shouldFindACreateAndARecordWriteOfEachCaseScopedResourceAtItsMappings() {
        for (CaseScopedResource resource : CaseScopedResource.values()) {
            // Given a create in a case's collection and a write of one record, at the resource's own mappings
            String create = resource.ofCase().replace("{caseId}", CASE_ID);
            String write = resource.record().replace("{id}", RECORD_ID);

            // When the filter reads what they name / Then each is the resource's, with the path's id
            assertThat(ProjectionWaitFilter.written(create)).as(create)
                    .contains(new Written(resource, CASE_ID, true));
            assertThat(ProjectionWaitFilter.written(write)).as(write)
                    .contains(new Written(resource, RECORD_ID, false));
            assertThat(ProjectionWaitFilter.written(resource.location(UUID.fromString(RECORD_ID)).toString()))
                    .as("a created record's Location").contains(new Written(resource, RECORD_ID, false));
        }
    }

    @Test
    void shouldFindNoCaseScopedResourceOutsideTheirPaths() {
        // Given writes of foster homes (no case's), of a case's assignment, and paths near the case-scoped ones
        for (String path : new String[] {"/foster-homes", "/foster-homes/" + RECORD_ID,
                "/foster-homes/" + RECORD_ID + "/placements", "/cases/" + CASE_ID + "/assignment", "/cases/" + CASE_ID,
                "/placements", "/placements/", "/placements/" + RECORD_ID + "/status",
                "/cases/" + CASE_ID + "/placement", "/cases/" + CASE_ID + "/placements/" + RECORD_ID,
                "/v1/placements/" + RECORD_ID, "/kinship_options/" + RECORD_ID, "/audit", "/"}) {
            // When the filter reads what it names / Then it is no case-scoped resource's
            assertThat(ProjectionWaitFilter.written(path)).as(path).isEmpty();
        }
    }
}
