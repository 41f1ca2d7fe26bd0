package org.caseassignments.api.http;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.ProblemCode;

/**
 * A parsed {@code If-Match} precondition (RFC 9110 §13.1.1): a non-empty list of entity tags. The
 * wildcard is refused (428) because it names no version; honouring it would be last-write-wins in
 * disguise. Matching uses the strong comparison: weak tags never match.
 *
 * <p>This service's tags are strong and unguessable ({@link EntityTags}); this class only parses and
 * compares, so it neither knows nor needs their format.
 */
public final class IfMatch {

    public static final String HEADER = "If-Match";

    private record EntityTag(boolean weak, String opaque) {
    }

    private final List<EntityTag> tags;
    /** {@code *}: only a conditional GET accepts it. */
    private final boolean any;

    private IfMatch(List<EntityTag> tags, boolean any) {
        this.tags = tags;
        this.any = any;
    }

    /**
     * @param headerValues every {@code If-Match} field line of the request (a list may span lines)
     * @throws ApiProblem 428 {@code PRECONDITION_REQUIRED} when absent, blank or {@code *};
     *                    400 {@code MALFORMED_IF_MATCH} when it is not a list of entity tags
     */
    public static IfMatch parse(List<String> headerValues) {
        String value = String.join(",", headerValues).strip();
        if (value.isEmpty() || value.equals("*")) {
            throw new ApiProblem(ProblemCode.PRECONDITION_REQUIRED, value.isEmpty()
                    ? "This write is conditional: send If-Match with the ETag of the version you read (GET the resource first)"
                    : "If-Match: * names no version; send the ETag of the version you read (GET the resource first)");
        }
        return new IfMatch(Collections.unmodifiableList(tags(value, HEADER)), false);
    }

    /**
     * The precondition of a GET or HEAD (RFC 9110 §13.1.1, §13.1.2): {@code If-Match} or
     * {@code If-None-Match}, where {@code *} matches any current version; {@code null} when absent.
     *
     * @throws ApiProblem 400 {@code MALFORMED_IF_MATCH} when it is neither {@code *} nor a list of entity tags
     */
    static IfMatch condition(List<String> headerValues, String header) {
        String value = String.join(",", headerValues).strip();
        if (headerValues.isEmpty()) {
            return null;
        }
        if (value.equals("*")) {
            return new IfMatch(List.of(), true);
        }
        return new IfMatch(Collections.unmodifiableList(tags(value, header)), false);
    }

    private static List<EntityTag> tags(String value, String header) {
        List<EntityTag> tags = new ArrayList<>();
        int i = 0;
        int n = value.length();
        while (i < n) {
            char c = value.charAt(i);
            if (c == ',' || c == ' ' || c == '\t') {
                i++;
                continue;
            }
            boolean weak = value.startsWith("W/", i);
            int open = weak ? i + 2 : i;
            if (open >= n || value.charAt(open) != '"') {
                throw malformed(header, value);
            }
            int close = value.indexOf('"', open + 1);
            if (close < 0) {
                throw malformed(header, value);
            }
            String opaque = value.substring(open + 1, close);
            if (!opaque.chars().allMatch(IfMatch::isEtagChar)) {
                throw malformed(header, value);
            }
            tags.add(new EntityTag(weak, opaque));
            i = close + 1;
            while (i < n && (value.charAt(i) == ' ' || value.charAt(i) == '\t')) {
                i++;
            }
            if (i < n && value.charAt(i) != ',') {
                throw malformed(header, value);
            }
        }
        if (tags.isEmpty()) {
            throw malformed(header, value);
        }
        return tags;
    }

    /**
     * Strong comparison: some listed tag is strong and equals {@code etag} character for character
     * (compared in constant time: how long a comparison takes says nothing about how close a guess was).
     *
     * @param etag the current version's strong tag, quotes included, as sent in {@code ETag}
     */
    public boolean matches(String etag) {
        if (etag.length() < 2 || etag.charAt(0) != '"' || etag.charAt(etag.length() - 1) != '"') {
            throw new IllegalArgumentException("not a strong entity tag: " + etag);
        }
        byte[] current = etag.substring(1, etag.length() - 1).getBytes(StandardCharsets.ISO_8859_1);
        boolean matched = any;
        for (EntityTag tag : tags) {
            matched |= !tag.weak() && MessageDigest.isEqual(tag.opaque().getBytes(StandardCharsets.ISO_8859_1), current);
        }
        return matched;
    }

    /** Weak comparison ({@code If-None-Match}): the tags' opaque parts match, weak or not; {@code *} matches. */
    public boolean matchesWeakly(String etag) {
        String current = etag.startsWith("W/") ? etag.substring(2) : etag;
        boolean matched = any;
        for (EntityTag tag : tags) {
            matched |= MessageDigest.isEqual(("\"" + tag.opaque() + "\"").getBytes(StandardCharsets.ISO_8859_1),
                    current.getBytes(StandardCharsets.ISO_8859_1));
        }
        return matched;
    }

    /** @throws ApiProblem 412 {@code PRECONDITION_FAILED} unless some listed tag matches {@code etag} */
    public void require(String etag, String what) {
        if (!matches(etag)) {
            throw new ApiProblem(ProblemCode.PRECONDITION_FAILED, "If-Match " + this + " does not match the current "
                    + "version of " + what + "; GET it again and reapply your change");
        }
    }

    @Override
    public String toString() {
        if (any) {
            return "*";
        }
        return String.join(", ", tags.stream().map(tag -> (tag.weak() ? "W/" : "") + "\"" + tag.opaque() + "\"").toList());
    }

    /** etagc = %x21 / %x23-7E / obs-text. */
    private static boolean isEtagChar(int c) {
        return c == 0x21 || (c >= 0x23 && c <= 0x7E) || (c >= 0x80 && c <= 0xFF);
    }

    private static ApiProblem malformed(String header, String value) {
        return new ApiProblem(ProblemCode.MALFORMED_IF_MATCH, header + " must be a list of quoted entity tags such as "
                + "\"q3xk0Vd5a1Jp2m2TQbJ1hg\", as sent in the ETag header; got: " + abbreviate(value));
    }

    private static String abbreviate(String value) {
        return value.length() <= 80 ? value : value.substring(0, 80) + "…";
    }
}
