package org.caseassignments.api.audit;

import java.util.Locale;

/**
 * What a write did, or that a read was refused (a read of another jurisdiction's record: the only read recorded).
 * A kinship option's soft delete is authorized as an update but audited as a delete.
 */
public enum AuditAction {
    CREATE, UPDATE, DELETE, READ;

    String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }
}
