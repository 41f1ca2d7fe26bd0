package org.caseassignments.testkit;

import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Builders that insert rows directly, to set up a state: {@code Rows.placement(caseId).worker("w").insert(jdbc)}.
 * Production code never writes like this; the projection in particular goes through the guarded writer.
 */
public final class Rows {

    private Rows() {
    }

    public static AssignmentRow assignment(UUID caseId) {
        return new AssignmentRow(caseId);
    }

    public static EntityRow placement(UUID caseId) {
        return new EntityRow("placements", caseId);
    }

    public static EntityRow kinshipOption(UUID caseId) {
        return new EntityRow("kinship_options", caseId);
    }

    public static FosterHomeRow fosterHome() {
        return new FosterHomeRow();
    }

    /** A {@code case_assignments} row, in Georgia unless told; revision −1 with no pair is a placeholder. */
    public static final class AssignmentRow {
        private final UUID caseId;
        private String worker = "worker-1";
        private String supervisor = "supervisor-1";
        private long revision;
        private String jurisdiction = "georgia";

        private AssignmentRow(UUID caseId) {
            this.caseId = caseId;
        }

        public AssignmentRow worker(String worker) {
            this.worker = worker;
            return this;
        }

        public AssignmentRow supervisor(String supervisor) {
            this.supervisor = supervisor;
            return this;
        }

        public AssignmentRow revision(long revision) {
            this.revision = revision;
            return this;
        }

        /** Null: unknown, as for a case projected before its jurisdiction was known. */
        public AssignmentRow jurisdiction(String jurisdiction) {
            this.jurisdiction = jurisdiction;
            return this;
        }

        public AssignmentRow placeholder() {
            return worker(null).supervisor(null).revision(-1).jurisdiction(null);
        }

        public UUID insert(JdbcTemplate jdbc) {
            jdbc.update("""
                    INSERT INTO case_assignments (case_id, assigned_worker_sub, supervisor_sub, assignment_revision,
                                                  jurisdiction, updated_at)
                    VALUES (?, ?, ?, ?, ?, now())
                    """, caseId, worker, supervisor, revision, jurisdiction);
            return caseId;
        }
    }

    /** A placement or kinship option row with its denormalized assignment. */
    public static final class EntityRow {
        private final String table;
        private final UUID caseId;
        private UUID id = UUID.randomUUID();
        private String worker = "worker-1";
        private String supervisor = "supervisor-1";
        private long revision;
        private long rowVersion = 1;
        private String status = "PROPOSED";
        private UUID fosterHome;

        private EntityRow(String table, UUID caseId) {
            this.table = table;
            this.caseId = caseId;
        }

        public EntityRow id(UUID id) {
            this.id = id;
            return this;
        }

        public EntityRow worker(String worker) {
            this.worker = worker;
            return this;
        }

        public EntityRow supervisor(String supervisor) {
            this.supervisor = supervisor;
            return this;
        }

        public EntityRow revision(long revision) {
            this.revision = revision;
            return this;
        }

        public EntityRow rowVersion(long rowVersion) {
            this.rowVersion = rowVersion;
            return this;
        }

        /** A placement's status (PROPOSED unless told); the database's occupancy and licence gate still apply. */
        public EntityRow status(String status) {
            this.status = status;
            return this;
        }

        /** The foster home a placement names (none unless told). */
        public EntityRow in(UUID fosterHome) {
            this.fosterHome = fosterHome;
            return this;
        }

        /** As the create path stores a row for a case that is not known yet. */
        public EntityRow bornUnknown() {
            return worker(null).supervisor(null).revision(0);
        }

        public UUID insert(JdbcTemplate jdbc) {
            if (table.equals("placements")) {
                jdbc.update("""
                        INSERT INTO placements (id, case_id, status, foster_home_id, assigned_worker_sub, supervisor_sub,
                                                assignment_revision, row_version, created_by)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'testkit')
                        """, id, caseId, status, fosterHome, worker, supervisor, revision, rowVersion);
            } else {
                jdbc.update("""
                        INSERT INTO kinship_options (id, case_id, relative_name, relationship, assigned_worker_sub,
                                                     supervisor_sub, assignment_revision, row_version, created_by)
                        VALUES (?, ?, 'Ada Relative', 'aunt', ?, ?, ?, ?, 'testkit')
                        """, id, caseId, worker, supervisor, revision, rowVersion);
            }
            return id;
        }
    }

    public static final class FosterHomeRow {
        private UUID id = UUID.randomUUID();
        private String name = "Maple House";
        private String licenseNumber = "LIC-" + UUID.randomUUID().toString().substring(0, 8);
        private String licenseStatus = "ACTIVE";
        private String adminUnit = "unit-1";
        private Integer capacity = 2;
        private String jurisdiction = "georgia";

        private FosterHomeRow() {
        }

        /** Null: unknown, as for a home created before homes carried their jurisdiction. */
        public FosterHomeRow jurisdiction(String jurisdiction) {
            this.jurisdiction = jurisdiction;
            return this;
        }

        public FosterHomeRow id(UUID id) {
            this.id = id;
            return this;
        }

        public FosterHomeRow name(String name) {
            this.name = name;
            return this;
        }

        public FosterHomeRow licenseNumber(String licenseNumber) {
            this.licenseNumber = licenseNumber;
            return this;
        }

        public FosterHomeRow licenseStatus(String licenseStatus) {
            this.licenseStatus = licenseStatus;
            return this;
        }

        public FosterHomeRow adminUnit(String adminUnit) {
            this.adminUnit = adminUnit;
            return this;
        }

        public FosterHomeRow capacity(Integer capacity) {
            this.capacity = capacity;
            return this;
        }

        public UUID insert(JdbcTemplate jdbc) {
            jdbc.update("""
                    INSERT INTO foster_homes (id, name, license_number, license_status, admin_unit, capacity, jurisdiction)
                    VALUES (?, ?, ?, ?, ?, ?, ?)
                    """, id, name, licenseNumber, licenseStatus, adminUnit, capacity, jurisdiction);
            return id;
        }
    }
}
