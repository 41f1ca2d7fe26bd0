package org.caseassignments.api.http;

import java.util.Collections;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;
import org.springframework.web.servlet.HandlerInterceptor;

/**
 * Checks the precondition of a {@link RequiresIfMatch} handler first: an interceptor runs before
 * argument resolution, so a missing precondition is a 428 even when the body is malformed too.
 * Also resolves the parsed {@link IfMatch} parameter.
 */
final class IfMatchInterceptor implements HandlerInterceptor, HandlerMethodArgumentResolver {

    private static final String ATTRIBUTE = IfMatchInterceptor.class.getName() + ".ifMatch";

    @Override
    public boolean preHandle(HttpServletRequest request, HttpServletResponse response, Object handler) {
        if (handler instanceof HandlerMethod method && method.hasMethodAnnotation(RequiresIfMatch.class)) {
            request.setAttribute(ATTRIBUTE, IfMatch.parse(Collections.list(request.getHeaders(IfMatch.HEADER))));
        }
        return true;
    }

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == IfMatch.class;
    }

    @Override
    public IfMatch resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
                                   NativeWebRequest webRequest, WebDataBinderFactory binderFactory) {
        Object parsed = webRequest.getAttribute(ATTRIBUTE, RequestAttributes.SCOPE_REQUEST);
        if (parsed instanceof IfMatch ifMatch) {
            return ifMatch;
        }
        throw new IllegalStateException(parameter.getExecutable() + " takes an IfMatch but is not annotated @RequiresIfMatch");
    }
}
