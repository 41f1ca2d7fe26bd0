package org.caseassignments.backfill.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A JDBC source is printed and recorded without its secrets, its URL and its query redacted each by its own rule, so
 * that a secret at the end of the URL cannot take the query with it.
 */
class SourceIdentityTests {

    private static final String URL_WITH_PASSWORD_LAST = "jdbc:postgresql://db/snap?sslmode=verify-full&password=url-s3cret";

    @Test
    void shouldKeepTheQueryApartWhenAPasswordIsTheUrlsLastParameter() {
        String one = jdbc(URL_WITH_PASSWORD_LAST, "SELECT * FROM cases WHERE region = 'north'");
        String other = jdbc(URL_WITH_PASSWORD_LAST, "SELECT * FROM cases WHERE region = 'south'");

        assertThat(one).isNotEqualTo(other).contains("sslmode=verify-full", "query SELECT * FROM cases WHERE region = 'north'")
                .doesNotContain("url-s3cret");
        assertThat(other).contains("region = 'south'").doesNotContain("url-s3cret");
    }

    @Test
    void shouldRedactAPasswordInTheQueryText() {
        String printed = jdbc("jdbc:postgresql://db/snap", "SELECT * FROM dblink('host=cases-db password=query-s3cret "
                + "dbname=cases', 'SELECT 1') AS t(x int)");

        assertThat(printed).doesNotContain("query-s3cret").contains("host=cases-db", "dbname=cases");
    }

    /** As a checkpoint's description is printed back: one the tool wrote, and the same written by hand, unredacted. */
    private static String jdbc(String url, String query) {
        String written = SourceIdentity.ofQuery(url, query).redactedDescription();
        String byHand = new SourceIdentity("jdbc " + url + " query " + query, -1, -1).redactedDescription();
        assertThat(byHand).isEqualTo(written);
        return written;
    }
}
