package org.caseassignments.api.problem;

import java.util.Set;
import java.util.TreeSet;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * The methods the handlers serve at a request's path, for the {@code Allow} header of a 405 answered
 * before Spring MVC sees the request (a method the firewall refuses, such as {@code TRACE}).
 */
final class AllowedMethods {

    private final RequestMappingHandlerMapping handlers;

    AllowedMethods(RequestMappingHandlerMapping handlers) {
        this.handlers = handlers;
    }

    /** Empty when no handler serves the path at all. */
    Set<String> at(HttpServletRequest request) {
        Set<String> methods = new TreeSet<>();
        if (!ServletRequestPathUtils.hasParsedRequestPath(request)) {
            ServletRequestPathUtils.parseAndCache(request);
        }
        handlers.getHandlerMethods().keySet().forEach(mapping -> {
            if (mapping.getPathPatternsCondition() != null
                    && mapping.getPathPatternsCondition().getMatchingCondition(request) != null) {
                mapping.getMethodsCondition().getMethods().forEach(method -> methods.add(method.name()));
            }
        });
        if (!methods.isEmpty()) {
            methods.add("OPTIONS");
            if (methods.contains("GET")) {
                methods.add("HEAD");
            }
        }
        return methods;
    }
}
