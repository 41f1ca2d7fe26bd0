/**
 * RFC 9457 problem documents with a stable {@code code} ({@code ProblemCode}) for every error except
 * 401 and 403 (a policy denial is a 403 with an empty body): what the handlers raise ({@code ApiProblem}),
 * what the framework raises ({@code ErrorHandling}, the error page), and what Tomcat and Spring Security's
 * firewall answer before any handler runs ({@code ProblemReportValve}, {@code RejectedRequests}), all
 * with the same members, the security headers and the request id. It knows nothing of {@code http}:
 * the HTTP conventions raise these problems, never the other way round.
 */
package org.caseassignments.api.problem;
