/**
 * The request id: accepted from {@code X-Request-Id} or generated, assigned before any other filter
 * runs, echoed on every answer, carried by every problem document and kept in the logging MDC.
 */
package org.caseassignments.api.requestid;
