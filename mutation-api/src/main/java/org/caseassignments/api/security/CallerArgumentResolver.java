package org.caseassignments.api.security;

import org.springframework.core.MethodParameter;
import org.springframework.web.bind.support.WebDataBinderFactory;
import org.springframework.web.context.request.NativeWebRequest;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.method.support.ModelAndViewContainer;

/** Lets a handler declare a {@link Caller} parameter instead of unpacking the token itself. */
class CallerArgumentResolver implements HandlerMethodArgumentResolver {

    @Override
    public boolean supportsParameter(MethodParameter parameter) {
        return parameter.getParameterType() == Caller.class;
    }

    @Override
    public Caller resolveArgument(MethodParameter parameter, ModelAndViewContainer mavContainer,
                                  NativeWebRequest webRequest, WebDataBinderFactory binderFactory) {
        return Caller.authenticated().orElseThrow(() -> new IllegalStateException("Handler "
                + parameter.getExecutable() + " needs a Caller, but the request was not authenticated with a bearer token; is its path permitted without one?"));
    }
}
