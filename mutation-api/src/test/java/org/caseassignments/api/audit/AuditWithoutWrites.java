package org.caseassignments.api.audit;

import java.util.UUID;

import org.caseassignments.api.policy.Decision;
import org.caseassignments.api.policy.ResourceRef;
import org.caseassignments.api.policy.UpdateAuthorization;
import org.caseassignments.api.security.Caller;
import org.caseassignments.store.jdbc.OneRoundTrip;
import org.springframework.context.ApplicationContext;

/** For the update benchmark only: the application's audit trail with the write's record left out. */
public final class AuditWithoutWrites {

    private AuditWithoutWrites() {
    }

    public static AuditTrail of(ApplicationContext app) {
        return new AuditTrail(app.getBean(AuditRecords.class), app.getBean(RefusalWriter.class),
                app.getBean(io.micrometer.core.instrument.MeterRegistry.class)) {
            @Override
            public void created(Caller caller, String requestId, Decision decision, ResourceRef created, Held held,
                                long rowVersion, UUID fosterHome, OneRoundTrip.PairedStatement along) {
                throw new UnsupportedOperationException("the update benchmark creates nothing");
            }

            @Override
            public void updated(Caller caller, String requestId, AuditAction action, UpdateAuthorization authorization,
                                ResourceRef locked, Held held, long rowVersionBefore, long rowVersionAfter,
                                UUID fosterHome) {
            }
        };
    }
}
