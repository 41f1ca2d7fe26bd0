package org.caseassignments.api.write;

import org.caseassignments.api.audit.AuditTrail;
import org.caseassignments.api.http.EntityTags;
import org.caseassignments.api.policy.PolicyEngine;
import org.springframework.context.ApplicationContext;
import org.springframework.transaction.support.TransactionTemplate;

/** For the update benchmark only: the application's update path with another audit trail. */
public final class GuardedUpdates {

    private GuardedUpdates() {
    }

    public static GuardedUpdate with(ApplicationContext app, AuditTrail audit) {
        return new GuardedUpdate(app.getBean(PolicyEngine.class), app.getBean(TransactionTemplate.class),
                app.getBean(EntityTags.class), audit);
    }
}
