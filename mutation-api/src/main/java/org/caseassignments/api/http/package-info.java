/**
 * The HTTP conventions every resource shares: strong, unguessable ETags (a MAC of resource type, id
 * and row version under a configured secret) and the
 * {@code If-Match} precondition (checked before anything else a conditional write does), request
 * body limits, strict request binding and the constraints every text field and date carries
 * ({@code PlainText}, {@code CalendarDate}), what a PATCH's fields mean by its media type ({@code Patch}),
 * and RFC 9457 problem documents with a stable {@code code} for every error except 401 and 403 (a policy
 * denial is a 403 with an empty body) — including what Tomcat and Spring Security's firewall answer before
 * any handler runs; request ids; conditional reads; and the statuses the OpenAPI description documents per
 * operation.
 */
package org.caseassignments.api.http;
