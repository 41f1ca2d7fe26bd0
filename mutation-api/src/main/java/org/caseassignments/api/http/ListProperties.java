package org.caseassignments.api.http;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of a case's lists ({@code api.lists.*}); each has an environment-variable override in application.yml.
 *
 * @param maxPageSize the most items one page of {@code GET /cases/{id}/placements} or {@code …/kinship-options}
 *                    holds, and the size of a page asked for without {@code limit} ({@code API_LISTS_MAX_PAGE_SIZE})
 */
@ConfigurationProperties("api.lists")
public record ListProperties(@DefaultValue("100") int maxPageSize) {

    public ListProperties {
        if (maxPageSize < 1) {
            throw new IllegalArgumentException("api.lists.max-page-size (API_LISTS_MAX_PAGE_SIZE) must be at least 1, not "
                    + maxPageSize);
        }
    }
}
