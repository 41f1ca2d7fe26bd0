package org.caseassignments.api.assignment;

import java.io.IOException;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemWriter;
import org.caseassignments.api.security.Caller;
import org.caseassignments.store.CaseIds;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationToken;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@code Min-Assignment-Revision: N} on a write of a case-scoped record: the write is held, without a thread
 * or a connection, until the projection of the record's case has reached revision N, then handled as if it had
 * just arrived (authorized on what it then reads); if N is not reached within the wait ({@code Prefer: wait=S},
 * RFC 7240, at most {@code api.assignment.max-wait}), it is answered 409 {@code PROJECTION_BEHIND} with nothing
 * written. A case of another jurisdiction is never waited for: the handler refuses it as always (decision 32).
 * A malformed {@code Prefer: wait} is 400 on every write, with the header or without it (decision 32, amendment).
 */
final class ProjectionWaitFilter extends OncePerRequestFilter {

    static final String HEADER = "Min-Assignment-Revision";
    private static final Pattern CASE_IN_PATH = Pattern.compile("^/cases/([^/]+)/(?:placements|kinship-options)$");
    private static final Pattern ROW_IN_PATH = Pattern.compile("^/(placements|kinship-options)/([^/]+)$");
    private static final String PREFER = "Prefer";
    /** A preference's name ends where its value or its parameters begin (RFC 7240 section 2). */
    private static final Pattern PREFERENCE_NAME = Pattern.compile("[=;]");
    private static final Pattern PREFER_WAIT = Pattern.compile("(?i)^\\s*wait\\s*=\\s*(\\d{1,9})\\s*$");

    private static final String CASE_OF_ROW = """
            SELECT r.case_id, ca.assignment_revision, ca.jurisdiction
              FROM %s r LEFT JOIN case_assignments ca ON ca.case_id = r.case_id
             WHERE r.id = ?
            """;
    private static final String CASE = """
            SELECT ca.case_id, ca.assignment_revision, ca.jurisdiction FROM case_assignments ca WHERE ca.case_id = ?
            """;

    /** The case a write is about, as the projection holds it now (revision -1 and no jurisdiction: unknown). */
    private record Projected(UUID caseId, long revision, String jurisdiction) {
    }

    private final JdbcTemplate jdbc;
    private final ProjectionWaits waits;
    private final Duration maxWait;

    ProjectionWaitFilter(JdbcTemplate jdbc, ProjectionWaits waits, Duration maxWait) {
        this.jdbc = jdbc;
        this.waits = waits;
        this.maxWait = maxWait;
    }

    /** Reads pass; so does a write that names neither a revision nor any preference. */
    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return request.getMethod().equals("GET") || request.getMethod().equals("HEAD")
                || request.getHeader(HEADER) == null && request.getHeader(PREFER) == null;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        long minRevision;
        Duration wait;
        Projected projected;
        try {
            // A malformed wait is refused on every write, also one without the header: never silently ignored.
            wait = wait(Collections.list(request.getHeaders(PREFER)));
            if (request.getHeader(HEADER) == null) {
                chain.doFilter(request, response);
                return;
            }
            minRevision = minRevision(Collections.list(request.getHeaders(HEADER)));
            projected = projected(request.getRequestURI());
        } catch (ApiProblem problem) {
            ProblemWriter.write(request, response, problem);
            return;
        }
        String jurisdiction = callerJurisdiction();
        if (projected == null || jurisdiction == null || projected.revision() >= minRevision
                || projected.jurisdiction() != null && !projected.jurisdiction().equals(jurisdiction)) {
            // Nothing to wait for: the record is missing (404), the caller unauthenticated (401), the revision
            // reached, or the case another jurisdiction's (403): the handler answers as it always does.
            chain.doFilter(request, response);
            return;
        }
        if (wait.isZero()) {
            ProblemWriter.write(request, response, behind(projected, minRevision, wait));
            return;
        }
        AsyncContext async = request.startAsync(request, response);
        async.setTimeout(0);
        waits.await(projected.caseId(), minRevision, wait).whenComplete((reached, error) -> {
            if (Boolean.TRUE.equals(reached)) {
                async.dispatch();
                return;
            }
            try {
                Projected now = projected(request.getRequestURI());
                ProblemWriter.write(request, (HttpServletResponse) async.getResponse(),
                        behind(now == null ? projected : now, minRevision, wait));
            } catch (IOException | RuntimeException e) {
                logger.warn("Could not answer a write whose projection wait ended: " + e.getMessage());
            } finally {
                async.complete();
            }
        });
    }

    private static ProjectionBehind behind(Projected projected, long minRevision, Duration waited) {
        return new ProjectionBehind(projected.caseId(), projected.revision() < 0 ? null : projected.revision(),
                minRevision, waited);
    }

    private long minRevision(List<String> values) {
        if (values.size() != 1) {
            throw ApiProblem.invalidField(HEADER, "give it once");
        }
        try {
            long revision = Long.parseLong(values.get(0).strip());
            if (revision >= 0) {
                return revision;
            }
        } catch (NumberFormatException e) {
            // falls through to the refusal
        }
        throw ApiProblem.invalidField(HEADER, "must be an assignment revision: a whole number, 0 or more");
    }

    /**
     * {@code Prefer: wait=S} (seconds, RFC 7240); 0 when no preference is named {@code wait}. Other preferences
     * ({@code respond-async}, {@code return=minimal}, {@code waitress=…}) are not this service's to judge: ignored.
     */
    private Duration wait(List<String> prefers) {
        Duration wait = null;
        for (String header : prefers) {
            for (String preference : header.split(",")) {
                if (!PREFERENCE_NAME.split(preference, 2)[0].strip().equalsIgnoreCase("wait")) {
                    continue;
                }
                Matcher matcher = PREFER_WAIT.matcher(preference);
                if (!matcher.matches() || wait != null) {
                    throw ApiProblem.invalidField(PREFER, "wait must be given once, as whole seconds (wait=5)");
                }
                wait = ProjectionBehind.bounded(PREFER, Duration.ofSeconds(Long.parseLong(matcher.group(1))), maxWait);
            }
        }
        return wait == null ? Duration.ZERO : wait;
    }

    /** The case the write is about; null when the path names no case-scoped record, or one that does not exist. */
    private Projected projected(String path) {
        Matcher create = CASE_IN_PATH.matcher(path);
        if (create.matches()) {
            UUID caseId = CaseIds.parse(create.group(1));
            if (caseId == null) {
                return null;
            }
            return jdbc.query(CASE, (rs, row) -> map(rs, caseId), caseId).stream().findFirst()
                    .orElse(new Projected(caseId, -1, null));
        }
        Matcher update = ROW_IN_PATH.matcher(path);
        if (update.matches()) {
            UUID id = CaseIds.parse(update.group(2));
            String table = update.group(1).equals("placements") ? "placements" : "kinship_options";
            if (id == null) {
                return null;
            }
            return jdbc.query(CASE_OF_ROW.formatted(table), (rs, row) -> map(rs, rs.getObject("case_id", UUID.class)), id)
                    .stream().findFirst().orElse(null);
        }
        throw ApiProblem.invalidField(HEADER, "applies to writes of placements and kinship options only, which belong "
                + "to a case");
    }

    private static Projected map(java.sql.ResultSet rs, UUID caseId) throws java.sql.SQLException {
        long revision = rs.getLong("assignment_revision");
        boolean known = !rs.wasNull() && revision >= 0;
        return new Projected(caseId, known ? revision : -1, known ? rs.getString("jurisdiction") : null);
    }

    /** The verified token's jurisdiction; null when the request carries no verified token. */
    private static String callerJurisdiction() {
        Authentication authentication = SecurityContextHolder.getContext().getAuthentication();
        return authentication instanceof JwtAuthenticationToken token
                ? token.getToken().getClaimAsString(Caller.JURISDICTION) : null;
    }
}
