package org.caseassignments.api.audit;

import java.util.Locale;

/** What a write did. A kinship option's soft delete is authorized as an update but audited as a delete. */
public enum AuditAction {
    CREATE, UPDATE, DELETE;

    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
