package org.caseassignments.api.http;

import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

    private final IfMatchInterceptor ifMatch = new IfMatchInterceptor();
    private final DeclaredQueryParameters declaredQueryParameters;

    WebConfiguration(MeterRegistry meters) {
        this.declaredQueryParameters = new DeclaredQueryParameters(meters);
    }

    /** A missing If-Match first (428 before anything else), then the query parameters the operation does not take. */
    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(ifMatch);
        registry.addInterceptor(declaredQueryParameters);
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(ifMatch);
    }

    @Bean
    EntityTags entityTags(ApiProperties properties) {
        return new EntityTags(properties.etagKey());
    }

    /** The cursors' key is derived from the ETag secret (decision 40): one secret to keep and share, not two. */
    @Bean
    OpaqueCursor opaqueCursor(ApiProperties properties) {
        return new OpaqueCursor(properties.etagKey());
    }

    @Bean
    FilterRegistrationBean<BlankAcceptFilter> blankAccept() {
        return BlankAcceptFilter.registration();
    }

    /** After the security filters, so an unauthenticated request is a 401 whatever it declares. */
    @Bean
    FilterRegistrationBean<WildcardContentTypeFilter> wildcardContentType() {
        FilterRegistrationBean<WildcardContentTypeFilter> registration =
                new FilterRegistrationBean<>(new WildcardContentTypeFilter());
        registration.setOrder(Ordered.LOWEST_PRECEDENCE - 3);
        return registration;
    }

    /** After the security filters, so an unauthenticated request is a 401 whatever its size. */
    @Bean
    FilterRegistrationBean<BodySizeLimitFilter> bodySizeLimit(ApiProperties properties) {
        FilterRegistrationBean<BodySizeLimitFilter> registration =
                new FilterRegistrationBean<>(new BodySizeLimitFilter(properties.maxBodySize().toBytes()));
        registration.setOrder(Ordered.LOWEST_PRECEDENCE - 2);
        return registration;
    }
}
