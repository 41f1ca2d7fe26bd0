package org.caseassignments.api.http;

import java.lang.reflect.Method;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.problem.FieldError;
import org.caseassignments.api.problem.ProblemCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerInterceptor;
import org.springframework.web.servlet.HandlerMapping;

/**
 * Refuses, before the handler runs, a query parameter the operation does not take: 400 {@code VALIDATION_FAILED}
 * naming each, with the ones it takes. Ignored, a misspelt filter ({@code ?statuss=ACTIVE}) would list everything
 * and an option this API does not have ({@code ?dry_run=true}) would write: an answer to another question than the
 * one asked (decision 45). An operation takes the parameters its {@code @RequestParam}s name, and one without any
 * takes none. Only the query string is read (a form body is never parsed as parameters), and only for this API's own
 * operations on a request's first dispatch: the error page, the OpenAPI description and the probes are not operations
 * of it.
 */
final class DeclaredQueryParameters implements HandlerInterceptor {

    /** Requests refused for a query parameter their operation does not take, by operation. */
    static final String REFUSED_METRIC = "api.query.parameters.refused";

    private static final Logger log = LoggerFactory.getLogger(DeclaredQueryParameters.class);
    private static final String OWN_PACKAGE = "org.caseassignments.api";
    /** How much of a parameter's name an answer repeats, in characters: enough to recognise it. */
    private static final int SHOWN_NAME = 64;
    /** How many unknown parameters an answer names. */
    private static final int SHOWN_NAMES = 10;

    private final Map<Method, Set<String>> declared = new ConcurrentHashMap<>();
    private final MeterRegistry meters;

    DeclaredQueryParameters(MeterRegistry meters) {
        this.meters = meters;
    }

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        String query = request.getQueryString();
        if (query == null || request.getDispatcherType() != DispatcherType.REQUEST
                || !(handler instanceof HandlerMethod operation) || !ownOperation(operation)) {
            return true;
        }
        Set<String> takes = declared.computeIfAbsent(operation.getMethod(), method -> takes(operation));
        Set<String> unknown = new LinkedHashSet<>(names(query));
        unknown.removeAll(takes);
        if (!unknown.isEmpty()) {
            throw refused(request, takes, unknown);
        }
        return true;
    }

    /**
     * The 400, counted and logged by operation. The answer names the first {@value #SHOWN_NAMES} unknown parameters
     * and how many more, and what the operation takes once: however many a query string holds, the answer stays
     * small. The log line holds no name: each is the caller's text.
     */
    private ApiProblem refused(HttpServletRequest request, Set<String> takes, Set<String> unknown) {
        String operation = request.getMethod() + " " + request.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE);
        meters.counter(REFUSED_METRIC, "operation", operation).increment();
        log.info("Refused {}: {} query parameter(s) it does not take", operation, unknown.size());
        List<FieldError> errors = new ArrayList<>(unknown.stream().limit(SHOWN_NAMES)
                .map(name -> new FieldError(shown(name), "is not a query parameter of this operation")).toList());
        if (unknown.size() > SHOWN_NAMES) {
            errors.add(new FieldError("…", "and " + (unknown.size() - SHOWN_NAMES) + " more query parameters this "
                    + "operation does not take"));
        }
        return new ApiProblem(ProblemCode.VALIDATION_FAILED, "The request has query parameters this operation does "
                + "not take; remove or correct them and resend: " + (takes.isEmpty()
                ? "this operation takes no query parameter" : "this operation takes " + String.join(", ", takes)),
                errors);
    }

    private static boolean ownOperation(HandlerMethod operation) {
        return operation.getBeanType().getPackageName().startsWith(OWN_PACKAGE)
                && AnnotatedElementUtils.hasAnnotation(operation.getBeanType(), RestController.class);
    }

    private static Set<String> takes(HandlerMethod operation) {
        Set<String> names = new TreeSet<>();
        for (MethodParameter parameter : operation.getMethodParameters()) {
            RequestParam declared = parameter.getParameterAnnotation(RequestParam.class);
            if (declared == null) {
                continue;
            }
            String name = !declared.name().isEmpty() ? declared.name() : declared.value();
            if (name.isEmpty()) {
                parameter.initParameterNameDiscovery(new DefaultParameterNameDiscoverer());
                name = parameter.getParameterName();
            }
            names.add(name);
        }
        return Collections.unmodifiableSet(names);
    }

    /**
     * The names of the query string's parameters, decoded as the servlet container decodes them (UTF-8, {@code +} a
     * space); empty names ({@code ?&}, {@code ?=x}) are none.
     *
     * @throws ApiProblem 400 {@code BAD_REQUEST} for a name that does not decode, as for a value that does not
     */
    private static List<String> names(String query) {
        List<String> names = new ArrayList<>();
        for (String pair : query.split("&")) {
            int equals = pair.indexOf('=');
            String name = equals < 0 ? pair : pair.substring(0, equals);
            if (name.isEmpty()) {
                continue;
            }
            try {
                names.add(URLDecoder.decode(name, StandardCharsets.UTF_8));
            } catch (IllegalArgumentException undecodable) {
                throw ApiProblem.notPercentEncoded();
            }
        }
        return names;
    }

    /** Cut by characters (code points), never inside one: half a surrogate pair is no text. */
    private static String shown(String name) {
        return name.codePointCount(0, name.length()) <= SHOWN_NAME ? name
                : name.substring(0, name.offsetByCodePoints(0, SHOWN_NAME)) + "…";
    }
}
