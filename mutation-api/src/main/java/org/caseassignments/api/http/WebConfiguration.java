package org.caseassignments.api.http;

import java.util.List;

import jakarta.servlet.DispatcherType;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.security.web.firewall.RequestRejectedHandler;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

    private final IfMatchInterceptor ifMatch = new IfMatchInterceptor();

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(ifMatch);
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(ifMatch);
    }

    @Bean
    EntityTags entityTags(ApiProperties properties) {
        return new EntityTags(properties.etagKey());
    }

    /** First of all filters, so that every answer, a refusal by security included, carries the id. */
    @Bean
    FilterRegistrationBean<RequestIdFilter> requestIds() {
        FilterRegistrationBean<RequestIdFilter> registration = new FilterRegistrationBean<>(new RequestIdFilter());
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE);
        registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ERROR, DispatcherType.ASYNC);
        return registration;
    }

    /** Spring Security's firewall refusals as problem documents (picked up by type). */
    @Bean
    RequestRejectedHandler rejectedRequests(
            @Qualifier("requestMappingHandlerMapping") RequestMappingHandlerMapping handlers) {
        return new RejectedRequests(new AllowedMethods(handlers));
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

    /** After the security filters, so an unauthenticated request is a 401 whatever it declares. */
    @Bean
    FilterRegistrationBean<WildcardContentTypeFilter> wildcardContentType() {
        FilterRegistrationBean<WildcardContentTypeFilter> registration =
                new FilterRegistrationBean<>(new WildcardContentTypeFilter());
        registration.setOrder(Ordered.LOWEST_PRECEDENCE - 1);
        return registration;
    }

    /** After the security filters, so an unauthenticated request is a 401 whatever its size. */
    @Bean
    FilterRegistrationBean<BodySizeLimitFilter> bodySizeLimit(ApiProperties properties) {
        FilterRegistrationBean<BodySizeLimitFilter> registration =
                new FilterRegistrationBean<>(new BodySizeLimitFilter(properties.maxBodySize().toBytes()));
        registration.setOrder(Ordered.LOWEST_PRECEDENCE);
        return registration;
    }
}
