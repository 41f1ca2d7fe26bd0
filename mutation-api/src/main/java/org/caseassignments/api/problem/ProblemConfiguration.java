package org.caseassignments.api.problem;

import jakarta.servlet.DispatcherType;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

@Configuration(proxyBeanMethods = false)
class ProblemConfiguration {

    /** Spring Security's firewall refusals as problem documents (picked up by type). */
    @Bean
    RequestRejectedHandler rejectedRequests(
            @Qualifier("requestMappingHandlerMapping") RequestMappingHandlerMapping handlers) {
        return new RejectedRequests(new AllowedMethods(handlers));
    }

    /**
     * A failure any filter lets through, answered as in a handler: the outermost filter but the request id's, so that
     * the answer and its log line carry the id.
     */
    @Bean
    FilterRegistrationBean<UnhandledFailureFilter> unhandledFailureFilter(UnhandledFailures failures) {
        FilterRegistrationBean<UnhandledFailureFilter> registration =
                new FilterRegistrationBean<>(new UnhandledFailureFilter(failures));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
        registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ASYNC, DispatcherType.ERROR);
        registration.setAsyncSupported(true);
        return registration;
    }

    /** Tomcat's own error answers (before any filter runs) as problem documents. */
    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> problemReports() {
        return factory -> {
            factory.addContextCustomizers(ProblemReportValve::install);
            // Tomcat would answer TRACE itself, with an Allow header listing what the servlet could do rather than
            // what the path serves; let it through to the firewall, which refuses it (RejectedRequests answers the
            // 405), so no TRACE ever reaches a servlet that would echo the request.
            factory.addConnectorCustomizers(connector -> connector.setAllowTrace(true));
        };
    }
}
