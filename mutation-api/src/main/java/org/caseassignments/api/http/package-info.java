/**
 * The HTTP conventions every resource shares: strong, unguessable ETags (a MAC of resource type, id
 * and row version under a configured secret) and the
 * {@code If-Match} precondition (checked before anything else a conditional write does), request
 * body limits, strict request binding and the constraints every text field and date carries
 * ({@code PlainText}, {@code CalendarDate}), what a PATCH's fields mean by its media type ({@code Patch}),
 * conditional reads, the resources that belong to a case and where they are mapped ({@code CaseScopedResource}),
 * and the statuses the OpenAPI description documents per operation. Its errors are
 * {@code ApiProblem}s of the {@code problem} package, which depends on nothing here.
 */
package org.caseassignments.api.http;
