package org.caseassignments.management;

import org.caseassignments.api.http.BlankAcceptFilter;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;

/**
 * The filters the management server ({@code management.server.port}) needs of the API's own: its child
 * context registers none of the API's servlet filters, only Spring Security's chain. Outside the API's
 * packages on purpose: a management context configuration must not be component-scanned into the
 * API's context, where the same filter is registered already (listed in
 * {@code META-INF/spring/…ManagementContextConfiguration.imports} instead).
 */
@ManagementContextConfiguration(value = ManagementContextType.CHILD, proxyBeanMethods = false)
class ManagementContextFilters {

    /** The Prometheus scrape answers a blank {@code Accept} with a 500 otherwise. */
    @Bean
    FilterRegistrationBean<BlankAcceptFilter> managementBlankAccept() {
        return BlankAcceptFilter.registration();
    }
}
