/**
 * What the mutation API's management server (the internal port of health details, info, metrics and the
 * Prometheus scrape) adds to Spring Boot's child context; loaded only into that context.
 */
package org.caseassignments.management;
