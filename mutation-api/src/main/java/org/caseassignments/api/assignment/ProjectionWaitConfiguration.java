package org.caseassignments.api.assignment;

import java.util.List;

import jakarta.servlet.DispatcherType;
import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.problem.UnhandledFailures;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

@Configuration(proxyBeanMethods = false)
class ProjectionWaitConfiguration {

    /**
     * Last of the filters: after security (the caller is known) and after the body-size and media-type filters
     * have wrapped the request, so a write dispatched again after its wait is still held to them.
     */
    @Bean
    FilterRegistrationBean<ProjectionWaitFilter> projectionWaitFilter(CaseAssignments assignments, PolicyEngine policy,
                                                                 List<HeldWrites> held, ProjectionWaits waits,
                                                                 AssignmentProperties properties,
                                                                 UnhandledFailures failures) {
        FilterRegistrationBean<ProjectionWaitFilter> registration = new FilterRegistrationBean<>(
                new ProjectionWaitFilter(assignments, policy, held, waits, properties.maxWait(), failures));
        registration.setOrder(Ordered.LOWEST_PRECEDENCE);
        registration.setDispatcherTypes(DispatcherType.REQUEST);
        registration.setAsyncSupported(true);
        return registration;
    }

    /**
     * After security too (the caller is known) and the body-size and media-type filters, just before the
     * {@link ProjectionWaitFilter} (which never takes a GET); a waited read's first dispatch only, before Spring MVC.
     */
    @Bean
    FilterRegistrationBean<WaitedReadFilter> waitedReadFilter(WaitedReads waitedReads, AssignmentProperties properties,
                                                              UnhandledFailures failures) {
        FilterRegistrationBean<WaitedReadFilter> registration = new FilterRegistrationBean<>(
                new WaitedReadFilter(waitedReads, properties.maxWait(), failures));
        registration.setOrder(Ordered.LOWEST_PRECEDENCE - 1);
        registration.setDispatcherTypes(DispatcherType.REQUEST);
        registration.setAsyncSupported(true);
        return registration;
    }
}
