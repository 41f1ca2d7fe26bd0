package org.caseassignments.api.fosterhome;

import org.caseassignments.api.http.ListPaging;
import org.caseassignments.api.http.OpaqueCursor;
import org.caseassignments.api.http.PlainText;
import org.caseassignments.api.problem.ApiProblem;

/**
 * The filters of {@code GET /foster-homes}, each absent (null) or checked: a licence status, an admin unit (as a home
 * stores it: one line of text, at most {@value #MAX_ADMIN_UNIT} characters), and the room a home has left at least
 * ({@code capacity} minus its ACTIVE placements; a home without a capacity always has room).
 */
record RosterFilter(LicenseStatus licenseStatus, String adminUnit, Integer minRoom) {

    /** As {@code CreateFosterHomeRequest} allows it: no longer value can match a home. */
    static final int MAX_ADMIN_UNIT = 100;

    /** @throws ApiProblem 400 {@code VALIDATION_FAILED} naming the parameter a value is wrong for */
    static RosterFilter of(String licenseStatus, String adminUnit, Integer minRoom) {
        if (adminUnit != null) {
            String problem = adminUnit.isBlank() ? "must not be blank" : adminUnit.length() > MAX_ADMIN_UNIT
                    ? "must be at most " + MAX_ADMIN_UNIT + " characters" : PlainText.Check.problem(adminUnit);
            if (problem != null) {
                throw ApiProblem.invalidField("admin_unit", problem);
            }
        }
        if (minRoom != null && minRoom < 1) {
            throw ApiProblem.invalidField("min_room", "must be at least 1 (leave it out for every home)");
        }
        return new RosterFilter(ListPaging.oneOf("license_status", licenseStatus, LicenseStatus.class), adminUnit,
                minRoom);
    }

    /** The list a cursor belongs to: the jurisdiction's homes under exactly these filters. */
    String scope(String jurisdiction) {
        return OpaqueCursor.scope("foster-homes", jurisdiction, licenseStatus, adminUnit, minRoom);
    }
}
