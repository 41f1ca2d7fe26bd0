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

    /** The description without credentials, for printing. */
    public String redactedDescription() {
        return redacted(description);
    }
}
