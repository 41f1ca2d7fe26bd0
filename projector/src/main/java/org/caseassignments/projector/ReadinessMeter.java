package org.caseassignments.projector;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.contributor.Status;
import org.springframework.stereotype.Component;

/**
 * {@code case_assignments.projector.ready}: 1 while the readiness group ({@code /actuator/health/readiness}) is
 * UP, 0 otherwise, read at each scrape. An alert on it fires on what a load balancer or Kubernetes acts on —
 * a task that has not committed for {@code projector.health.max-commit-delay} — from the same scrape as every
 * other meter, without probing the endpoint separately.
 */
@Component
class ReadinessMeter implements MeterBinder {

    static final String METRIC = "case_assignments.projector.ready";

    private final ObjectProvider<HealthEndpoint> health;

    ReadinessMeter(ObjectProvider<HealthEndpoint> health) {
        this.health = health;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder(METRIC, this, ReadinessMeter::ready)
                .description("1 while the projector's readiness group is UP, else 0").register(registry);
    }

    private double ready() {
        HealthEndpoint endpoint = health.getIfAvailable();
        var readiness = endpoint == null ? null : endpoint.healthForPath("readiness");
        return readiness != null && Status.UP.equals(readiness.getStatus()) ? 1 : 0;
    }
}
