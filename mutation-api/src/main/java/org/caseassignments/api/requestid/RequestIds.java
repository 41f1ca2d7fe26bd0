package org.caseassignments.api.requestid;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.MDC;

/**
 * The request id: taken from the caller's {@code X-Request-Id} when it is well formed (1–64 of
 * {@code [A-Za-z0-9._-]}, so it cannot break a log line or a header), otherwise generated. It is
 * echoed in the response header, carried by every problem document ({@code request_id}) and put in
 * the logging MDC ({@code request_id}) while the request runs.
 */
public final class RequestIds {

    public static final String HEADER = "X-Request-Id";
    public static final String MDC_KEY = "request_id";
    /** The caller's {@code sub}, in the MDC from authorization to the end of the request. */
    public static final String SUB_MDC_KEY = "sub";
    /** The case the request is about, in the MDC once the policy sees the record. */
    public static final String CASE_ID_MDC_KEY = "case_id";
    /**
     * The upstream trace id of the event that set the assignment the request holds {@code FOR SHARE}, in the MDC from
     * that read to the end of the request when the event carried one: logged, and in the problem document (decision
     * 34). The write's audit record takes it as a parameter from what the write held, never from here.
     */
    public static final String ASSIGNMENT_TRACE_ID_MDC_KEY = "assignment_trace_id";
    /** Where Micrometer Tracing keeps the current trace id while a request's observation is open. */
    static final String TRACING_MDC_KEY = "traceId";
    static final String ATTRIBUTE = RequestIds.class.getName() + ".id";

    private static final Pattern WELL_FORMED = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    private RequestIds() {
    }

    /**
     * The id {@link RequestIdFilter} assigned to this request before any handler ran; null for a request it did not
     * see. What a handler passes on to what records the request (its audit record).
     */
    public static String of(HttpServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof String assigned ? assigned : null;
    }

    /**
     * For the request's log lines from now on, and any problem document it answers: the trace id of the event that set
     * the assignment it holds; none when null (that event carried none, or the request must not name it).
     */
    public static void logAssignmentTrace(String traceId) {
        if (traceId == null) {
            MDC.remove(ASSIGNMENT_TRACE_ID_MDC_KEY);
        } else {
            MDC.put(ASSIGNMENT_TRACE_ID_MDC_KEY, traceId);
        }
    }

    /** The request's id, assigned (and echoed on the response) on first use. */
    public static String of(HttpServletRequest request, HttpServletResponse response) {
        Object known = request.getAttribute(ATTRIBUTE);
        String id = known instanceof String assigned ? assigned : accept(request.getHeader(HEADER));
        request.setAttribute(ATTRIBUTE, id);
        if (!response.isCommitted()) {
            response.setHeader(HEADER, id);
        }
        return id;
    }

    /**
     * The trace members of a problem document, from the MDC: {@code trace_id}, the request's own trace (Micrometer
     * Tracing's, the caller's W3C {@code traceparent} when it sent one), and {@code assignment_trace_id}, the trace of
     * the event that set the assignment the request held; each only when known (decision 34).
     */
    public static Map<String, Object> traceMembers() {
        Map<String, Object> members = new LinkedHashMap<>(2);
        String traceId = MDC.get(TRACING_MDC_KEY);
        if (traceId != null) {
            members.put("trace_id", traceId);
        }
        String assignmentTraceId = MDC.get(ASSIGNMENT_TRACE_ID_MDC_KEY);
        if (assignmentTraceId != null) {
            members.put("assignment_trace_id", assignmentTraceId);
        }
        return members;
    }

    /** {@code inbound} when it is well formed, otherwise a new random id. */
    static String accept(String inbound) {
        return inbound != null && WELL_FORMED.matcher(inbound).matches() ? inbound : UUID.randomUUID().toString();
    }
}
