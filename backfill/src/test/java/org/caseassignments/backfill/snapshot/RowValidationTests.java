package org.caseassignments.backfill.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.UUID;

import org.caseassignments.store.StorableText;
import org.junit.jupiter.api.Test;

class RowValidationTests {

    private static final String CASE = UUID.randomUUID().toString();

    @Test
    void shouldRejectASubjectPostgreSQLCannotStoreWithTheSharedCheck() {
        assertThat(RowValidation.validate(7, CASE, "w\0", "s", "1", null, "raw")).isEqualTo(new BadRow(7, BadRow.INVALID_TEXT,
                StorableText.subjectProblem("assigned_worker_sub", "w\0"), "raw"));
        assertThat(RowValidation.validate(8, CASE, "w", "s\uDC00", "1", null, "raw")).isEqualTo(new BadRow(8, BadRow.INVALID_TEXT,
                StorableText.subjectProblem("supervisor_sub", "s\uDC00"), "raw"));
        assertThat(RowValidation.validate(9, CASE, "w", "s".repeat(256), "1", null, "raw"))
                .isInstanceOfSatisfying(BadRow.class, bad -> assertThat(bad.reason()).isEqualTo("INVALID_TEXT"));
    }

    @Test
    void shouldAcceptSubjectsUpToTheMaximumAndEmptyAsNone() {
        assertThat(RowValidation.validate(2, CASE, "w".repeat(255), "", "3", "", "raw"))
                .isEqualTo(new SnapshotRow(2, UUID.fromString(CASE), "w".repeat(255), null, 3, null));
    }

    @Test
    void shouldCarryAJurisdictionAndRejectOneThatIsNotAJurisdictionName() {
        assertThat(RowValidation.validate(3, CASE, "w", "s", "1", "georgia", "raw"))
                .isEqualTo(new SnapshotRow(3, UUID.fromString(CASE), "w", "s", 1, "georgia"));
        assertThat(RowValidation.validate(4, CASE, "w", "s", "1", "Georgia\0", "raw"))
                .isInstanceOfSatisfying(BadRow.class, bad -> assertThat(bad.reason()).isEqualTo(BadRow.INVALID_JURISDICTION));
    }
}
