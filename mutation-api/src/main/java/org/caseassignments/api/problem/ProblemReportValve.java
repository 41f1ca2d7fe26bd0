package org.caseassignments.api.problem;

import java.io.IOException;

import org.apache.catalina.Container;
import org.apache.catalina.Context;
import org.apache.catalina.Lifecycle;
import org.apache.catalina.Valve;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.valves.ErrorReportValve;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tomcat's error report, as a problem document: what Tomcat answers itself, before any servlet or
 * filter runs (request headers over the limit, a malformed or over-long request target, an encoded
 * {@code ..} or {@code /}, characters HTTP does not allow), and any error status nothing else wrote
 * a body for. Replaces the HTML page of the {@link ErrorReportValve} it extends.
 */
final class ProblemReportValve extends ErrorReportValve {

    private static final Logger log = LoggerFactory.getLogger(ProblemReportValve.class);

    /** Puts this valve in place of the host's error report valves once the host has added its own. */
    static void install(Context context) {
        context.addLifecycleListener(event -> {
            if (Lifecycle.BEFORE_START_EVENT.equals(event.getType())) {
                Container host = context.getParent();
                for (Valve valve : host.getPipeline().getValves()) {
                    if (valve instanceof ErrorReportValve && !(valve instanceof ProblemReportValve)) {
                        host.getPipeline().removeValve(valve);
                    }
                }
                host.getPipeline().addValve(new ProblemReportValve());
            }
        });
    }

    @Override
    protected void report(Request request, Response response, Throwable throwable) {
        int status = response.getStatus();
        if (status < 400 || response.getContentWritten() > 0) {
            return;
        }
        if (response.isError() ? !response.setErrorReported() : status == 401 || status == 403) {
            // reported already; or a 401 or 403 set on purpose without a body (nothing says why)
            return;
        }
        ProblemCode code = ProblemCode.forStatus(status);
        try {
            response.resetBuffer();
            ProblemWriter.write(request.getRequest(), response.getResponse(), code, status, detail(status));
        } catch (IOException | IllegalStateException e) {
            log.debug("Could not write the problem document of a {} answer", status, e);
        }
    }

    private static String detail(int status) {
        if (status == 501) {
            return "This service does not implement that method (CONNECT is never served)";
        }
        return status == 400
                ? "The request is not valid HTTP this service accepts: check the request line (path characters, "
                + "encoded '..' or '/', length) and the size and syntax of the headers"
                : "The request could not be served (" + status + ")";
    }
}
