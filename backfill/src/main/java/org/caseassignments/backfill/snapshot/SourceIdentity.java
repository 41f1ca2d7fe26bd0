package org.caseassignments.backfill.snapshot;

import java.util.regex.Pattern;

/**
 * Recognises a snapshot source again on resume.
 *
 * @param description  e.g. {@code csv file /data/snap.csv} or {@code jdbc jdbc:postgresql://… query SELECT …}
 * @param size         file size in bytes, or −1 for a query
 * @param modifiedMillis file modification time, or −1 for a query
 */
public record SourceIdentity(String description, long size, long modifiedMillis) {

    /** A parameter any driver may read a secret from: password, sslpassword, PWD, password1, accessToken, …Secret. */
    private static final Pattern PASSWORD_PARAMETER = Pattern.compile(
            "(?i)([?&;][a-z0-9_.]*(?:password|passwd|pwd|secret|token)[a-z0-9_.]*=)[^&;]*");
    /**
     * A password in the user info of a URL ({@code //user:password@host}, a JDBC or a registry URL) or in Oracle's
     * {@code thin:user/password@host}.
     */
    private static final Pattern USER_INFO_PASSWORD = Pattern.compile("(//[^/:@?\\s]*:|:thin:[^/:@?\\s]*/)[^/@?\\s]*@");

    /**
     * The text without the credentials it may carry ({@code password=} parameters, a password in the user info), as
     * it may be written to a checkpoint file, a log line or a refusal: the same text always gives the same redacted
     * text, so a resume still recognises its source. The one rule for a source's URL in the checkpoint and for a
     * checkpoint's description printed back (one written before its URL was redacted, or by hand).
     */
    public static String redacted(String text) {
        return PASSWORD_PARAMETER.matcher(USER_INFO_PASSWORD.matcher(text).replaceAll("$1***@")).replaceAll("$1***");
    }

    /** A password given in a query's text, as a dblink connection string holds one ({@code password=…}). */
    private static final Pattern QUERY_PASSWORD = Pattern.compile("(?i)(\\bpassword\\s*=\\s*)\\S+");
    private static final String JDBC = "jdbc ";
    private static final String QUERY = " query ";

    /**
     * A query over a JDBC URL, each redacted by its own rule: the URL of its secret parameters and user info, the
     * query of a {@code password=} and of the user info of a URL it names. Kept apart, so that a secret parameter at
     * the end of the URL cannot take the query with it: two queries over one URL stay two sources.
     */
    public static SourceIdentity ofQuery(String url, String query) {
        return new SourceIdentity(JDBC + redacted(url) + QUERY + redactedQuery(query), -1, -1);
    }

    private static String redactedQuery(String query) {
        return QUERY_PASSWORD.matcher(USER_INFO_PASSWORD.matcher(query).replaceAll("$1***@")).replaceAll("$1***");
    }

    /**
     * The description without credentials, for printing and for recognising a source again: a query's description is
     * redacted as {@link #ofQuery} redacts it, so one written before (or by hand) gives what the source gives now.
     */
    public String redactedDescription() {
        int query = description.indexOf(QUERY);
        if (description.startsWith(JDBC) && query >= 0) {
            return ofQuery(description.substring(JDBC.length(), query), description.substring(query + QUERY.length()))
                    .description();
        }
        return redacted(description);
    }
}
