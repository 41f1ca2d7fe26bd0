package org.caseassignments.api.http;

import java.io.IOException;
import java.util.Collections;
import java.util.Enumeration;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Reads an {@code Accept} header whose only values are blank as no {@code Accept} at all: any media type
 * (RFC 9110 lets a server disregard an Accept it cannot honour). Spring Boot's Prometheus scrape
 * endpoint fails on a blank one with a NullPointerException (a 500) instead.
 */
public final class BlankAcceptFilter extends OncePerRequestFilter {

    private BlankAcceptFilter() {
    }

    /**
     * After the security filters, before anything negotiates the response's media type; for the API's
     * server and the management server alike.
     */
    public static FilterRegistrationBean<BlankAcceptFilter> registration() {
        FilterRegistrationBean<BlankAcceptFilter> registration = new FilterRegistrationBean<>(new BlankAcceptFilter());
        registration.setOrder(Ordered.LOWEST_PRECEDENCE - 4);
        return registration;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        chain.doFilter(blankAccept(request) ? new WithoutAccept(request) : request, response);
    }

    private static boolean blankAccept(HttpServletRequest request) {
        Enumeration<String> values = request.getHeaders(HttpHeaders.ACCEPT);
        if (values == null || !values.hasMoreElements()) {
            return false;
        }
        while (values.hasMoreElements()) {
            if (!values.nextElement().isBlank()) {
                return false;
            }
        }
        return true;
    }

    private static final class WithoutAccept extends HttpServletRequestWrapper {

        WithoutAccept(HttpServletRequest request) {
            super(request);
        }

        @Override
        public String getHeader(String name) {
            return HttpHeaders.ACCEPT.equalsIgnoreCase(name) ? null : super.getHeader(name);
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return HttpHeaders.ACCEPT.equalsIgnoreCase(name) ? Collections.emptyEnumeration() : super.getHeaders(name);
        }

        @Override
        public Enumeration<String> getHeaderNames() {
            return Collections.enumeration(Collections.list(super.getHeaderNames()).stream()
                    .filter(name -> !HttpHeaders.ACCEPT.equalsIgnoreCase(name)).toList());
        }
    }
}
