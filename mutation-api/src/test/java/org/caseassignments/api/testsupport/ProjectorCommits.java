package org.caseassignments.api.testsupport;

import java.util.List;
import java.util.UUID;

import org.caseassignments.store.AssignmentUpdate;
import org.caseassignments.store.AssignmentWriter;
import org.caseassignments.testkit.TestDatabase;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Commits of the projector, made by its own guarded writer in a transaction of their own: each announces the move
 * ({@code NOTIFY}) as the projector's do.
 */
public final class ProjectorCommits {

    private final AssignmentWriter writer;
    private final TransactionTemplate transaction;

    public ProjectorCommits(TestDatabase database) {
        this.writer = new AssignmentWriter(database.jdbc());
        this.transaction = new TransactionTemplate(new DataSourceTransactionManager(database.dataSource()));
    }

    /** The case assigned to {@code worker} and supervisor {@code s-1} at {@code revision}, in {@code jurisdiction}. */
    public void assign(UUID caseId, String worker, long revision, String jurisdiction) {
        transaction.executeWithoutResult(status -> writer.apply(List.of(
                AssignmentUpdate.changed(caseId, worker, "s-1", revision).withJurisdiction(jurisdiction))));
    }

    /** The same, in the test cases' jurisdiction. */
    public void assign(UUID caseId, String worker, long revision) {
        assign(caseId, worker, revision, Cases.JURISDICTION);
    }
}
