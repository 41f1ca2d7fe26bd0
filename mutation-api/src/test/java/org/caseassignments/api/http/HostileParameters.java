package org.caseassignments.api.http;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;

import org.caseassignments.api.http.HttpFuzzIntegrationTests.Generated;
import org.caseassignments.api.testsupport.TestETags;
import org.caseassignments.api.testsupport.TestTokens;

/**
 * Draws requests to the operations that take the read-your-writes, history, paging and tracing inputs
 * ({@code min_revision}, {@code wait}, {@code as_of}, {@code as_of_revision}, {@code cursor}, {@code limit}, the
 * roster's filters {@code license_status}, {@code admin_unit}, {@code min_room} and {@code status}, {@code Prefer}, {@code Min-Assignment-Revision}, {@code traceparent}), each input absent, well formed or hostile,
 * as callers of every kind send them: the case's worker, a stranger, another jurisdiction, no role, no token.
 * Waits are drawn short (a few milliseconds) or far beyond {@code api.assignment.max-wait}, so no draw waits long.
 */
final class HostileParameters {

    /** The cases and rows drawn from; {@code cursors} are next-page cursors the service itself answered. */
    record Fixtures(UUID caseId, UUID foreignCase, UUID home, UUID foreignHome, List<UUID> placements,
                    List<UUID> options, List<String> cursors) {
    }

    private static final String[] REVISIONS = {"0", "1", "2", "-1", "9223372036854775807", "9223372036854775808",
            "-9223372036854775808", "1e3", "1.0", "%201", "0x10", "", "abc", "%00", "1%00", "%2B1", "01",
            "%D9%A1", "1,2", "99999999999999999999999"};
    private static final String[] WAITS = {"PT0S", "PT0.001S", "PT0.005S", "PT1S", "P1D", "PT-1S", "-PT1S",
            "PT0.0000000001S", "PT9999999999999999999S", "P1Y", "", "5", "PT", "pt0s", "PT1M", "P2DT3H", "%00",
            "PT0.001S%00", "PT1H1M1.5S", "P-1D"};
    private static final String[] TIMES = {"2026-11-30T00:00:00Z", "2026-11-30T00:00:00%2B18:00",
            "2026-11-30T00:00:00-18:01", "2026-11-30", "0001-01-01T00:00:00Z", "0000-12-31T23:59:59Z",
            "9999-12-31T23:59:59Z", "%2B10000-01-01T00:00:00Z", "-0001-01-01T00:00:00Z", "now", "", "%00",
            "2026-02-30T00:00:00Z", "2026-11-30T24:00:00Z", "2026-11-30T00:00:00.123456789Z", "1700000000",
            "2026-11-30T00:00:00", "2026-11-30 00:00:00Z"};
    private static final String[] LIMITS = {"1", "1", "2", "0", "-1", "100", "101", "500", "501", "2147483647",
            "2147483648", "1.5", "", "%00", "1e2", "%201", "one"};
    private static final String[] PREFERS = {"wait=0", "wait=1", "wait=5", "wait=999999999", "wait=9999999999",
            "wait=-1", "wait=", "wait=1, wait=2", "respond-async, wait=1", "return=minimal", "wait=1.5", "waitress=3",
            "  WAIT = 0 ", "wait=0;x=1", "", ",", "wait=\"1\"", "wait=0, return=representation", "wait"};
    private static final String[] TRACE_PARENTS = {
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-xx",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01", "00-4bf92f3577b34da6a3ce929d0e0e47-00f067aa0ba902b7-01",
            "00-gggggggggggggggggggggggggggggggg-00f067aa0ba902b7-01", "", "garbage", "00--", "-".repeat(55),
            "00-" + "a".repeat(300) + "-00f067aa0ba902b7-01", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01, x"};
    private static final String[] LICENSE_STATUSES = {"ACTIVE", "PENDING", "SUSPENDED", "REVOKED", "LICENSED",
            "active", "", "%00", "ACTIVE%00", "ACTIVE,PENDING", "%20ACTIVE"};
    private static final String[] ADMIN_UNITS = {"unit-1", "unit-2", "", "%20", "%00", "unit%0A1", "%ED%A0%80",
            "u".repeat(100), "u".repeat(101), "%25", "'%20OR%201=1--"};
    private static final String[] PLACEMENT_STATUSES = {"ACTIVE", "PROPOSED", "ENDED", "CANCELLED", "LIVE", "active",
            "", "%00"};
    private static final String[] CURSOR_JUNK = {"", "%00", "A".repeat(300), "Li4", "LTkyMjMzNzIwMzY4NTQ3NzU4MDg6MQ",
            "%2F..%2F", "====", "a%2Bb%2Fc", UUID.randomUUID().toString(), "%ff%fe", "eyJhbGciOiJub25lIn0"};

    private final Random random;
    private final Fixtures fixtures;
    private final String[] tokens = {TestTokens.admin("a-1").token(), TestTokens.caseworker("w-1").token(),
            TestTokens.caseworker("w-9").token(), TestTokens.caseworker("w-1").jurisdiction("texas").token(),
            TestTokens.subject("nobody").roles().token(), null};

    HostileParameters(Random random, Fixtures fixtures) {
        this.random = random;
        this.fixtures = fixtures;
    }

    Generated next() {
        List<String> headers = new ArrayList<>();
        String token = pick(tokens);
        if (token != null) {
            headers.add("Authorization: Bearer " + token);
        }
        maybe(0.4, () -> headers.add("traceparent: " + pick(TRACE_PARENTS)));
        maybe(0.05, () -> headers.add("traceparent: " + pick(TRACE_PARENTS)));
        return switch (random.nextInt(8)) {
            case 0, 1 -> new Generated("GET", "/cases/" + caseId() + "/assignment" + query(assignmentQuery()), headers,
                    new byte[0]);
            case 2 -> new Generated("GET", "/cases/" + caseId() + "/assignment/history" + query(pageQuery()), headers,
                    new byte[0]);
            case 3 -> new Generated("GET", "/cases/" + caseId() + pick(new String[] {"/placements", "/kinship-options"})
                    + query(pageQuery()), headers, new byte[0]);
            case 4 -> new Generated("GET", "/foster-homes" + query(rosterQuery()), headers, new byte[0]);
            case 5 -> new Generated("GET", "/foster-homes/" + homeId() + "/placements" + query(homePlacementsQuery()),
                    headers, new byte[0]);
            default -> write(headers);
        };
    }

    private List<String> rosterQuery() {
        List<String> query = pageQuery();
        maybe(0.4, () -> query.add("license_status=" + pick(LICENSE_STATUSES)));
        maybe(0.4, () -> query.add("admin_unit=" + pick(ADMIN_UNITS)));
        maybe(0.4, () -> query.add("min_room=" + pick(LIMITS)));
        return query;
    }

    private List<String> homePlacementsQuery() {
        List<String> query = pageQuery();
        maybe(0.5, () -> query.add("status=" + pick(PLACEMENT_STATUSES)));
        return query;
    }

    /** Mostly the fixture home; also another jurisdiction's, one that does not exist, and a malformed id. */
    private String homeId() {
        int roll = random.nextInt(10);
        return roll < 6 ? fixtures.home().toString() : roll < 8 ? fixtures.foreignHome().toString()
                : roll < 9 ? UUID.randomUUID().toString() : pick(new String[] {"x", "%00", "00000000-0000-0000-0000-00000000000g"});
    }

    private List<String> assignmentQuery() {
        List<String> query = new ArrayList<>();
        maybe(0.5, () -> query.add("min_revision=" + pick(REVISIONS)));
        maybe(0.4, () -> query.add("wait=" + pick(WAITS)));
        maybe(0.25, () -> query.add("as_of=" + pick(TIMES)));
        maybe(0.25, () -> query.add("as_of_revision=" + pick(REVISIONS)));
        maybe(0.05, () -> query.add(pick(new String[] {"min_revision=1&min_revision=2", "wait=PT0S&wait=PT1S", "wait"})));
        return query;
    }

    private List<String> pageQuery() {
        List<String> query = new ArrayList<>();
        maybe(0.6, () -> query.add("limit=" + pick(LIMITS)));
        maybe(0.6, () -> query.add("cursor=" + cursor()));
        maybe(0.05, () -> query.add(pick(new String[] {"cursor=a&cursor=b", "limit=1&limit=2", "cursor"})));
        return query;
    }

    /** A create, an update or a delete of a placement or a kinship option, with the wait's and the trace's headers. */
    private Generated write(List<String> headers) {
        maybe(0.6, () -> headers.add("Min-Assignment-Revision: " + pick(REVISIONS)));
        maybe(0.05, () -> headers.add("Min-Assignment-Revision: " + pick(REVISIONS)));
        maybe(0.5, () -> headers.add("Prefer: " + pick(PREFERS)));
        maybe(0.05, () -> headers.add("Prefer: " + pick(PREFERS)));
        String body;
        String method;
        String target;
        switch (random.nextInt(5)) {
            case 0 -> {
                method = "POST";
                target = "/cases/" + caseId() + "/placements";
                body = "{}";
            }
            case 1 -> {
                method = "POST";
                target = "/cases/" + caseId() + "/kinship-options";
                body = "{\"relative_name\":\"Ann\",\"relationship\":\"aunt\"}";
            }
            case 2 -> {
                UUID placement = pick(fixtures.placements());
                method = "PATCH";
                target = "/placements/" + placement;
                body = "{\"status\":\"" + pick(new String[] {"PROPOSED", "ACTIVE"}) + "\"}";
                headers.add("If-Match: " + TestETags.placement(placement, 1 + random.nextInt(3)));
            }
            case 3 -> {
                UUID option = pick(fixtures.options());
                method = "PATCH";
                target = "/kinship-options/" + option;
                body = "{\"relationship\":\"grandmother\"}";
                headers.add("If-Match: " + TestETags.kinshipOption(option, 1 + random.nextInt(3)));
            }
            default -> {
                UUID option = pick(fixtures.options());
                method = "DELETE";
                target = "/kinship-options/" + option;
                body = "";
                headers.add("If-Match: " + TestETags.kinshipOption(option, 1 + random.nextInt(3)));
            }
        }
        if (!body.isEmpty()) {
            headers.add("Content-Type: application/json");
        }
        return new Generated(method, target, headers, body.getBytes(StandardCharsets.UTF_8));
    }

    /** Mostly the fixture case; also another jurisdiction's, one nobody knows, and a malformed id. */
    private String caseId() {
        int roll = random.nextInt(10);
        return roll < 6 ? fixtures.caseId().toString() : roll < 8 ? fixtures.foreignCase().toString()
                : roll < 9 ? UUID.randomUUID().toString() : pick(new String[] {"x", "%00", "00000000-0000-0000-0000-00000000000g"});
    }

    /** A cursor the service answered, as it is or changed by a character, cut or lengthened; or junk. */
    private String cursor() {
        if (fixtures.cursors().isEmpty() || random.nextInt(3) == 0) {
            return pick(CURSOR_JUNK);
        }
        String cursor = pick(fixtures.cursors());
        return switch (random.nextInt(5)) {
            case 0 -> cursor;
            case 1 -> cursor.substring(0, random.nextInt(cursor.length()));
            case 2 -> cursor + pick(new String[] {"A", "=", "%00", "..", cursor});
            default -> {
                char[] chars = cursor.toCharArray();
                int at = random.nextInt(chars.length);
                chars[at] = "AZaz09-_".charAt(random.nextInt(8));
                yield new String(chars);
            }
        };
    }

    private static String query(List<String> parameters) {
        return parameters.isEmpty() ? "" : "?" + String.join("&", parameters);
    }

    private void maybe(double probability, Runnable action) {
        if (random.nextDouble() < probability) {
            action.run();
        }
    }

    private <T> T pick(T[] choices) {
        return choices[random.nextInt(choices.length)];
    }

    private <T> T pick(List<T> choices) {
        return choices.get(random.nextInt(choices.size()));
    }
}
