package org.caseassignments.projector.testsupport;

import org.caseassignments.projector.ProjectorApplication;
import org.caseassignments.projector.stream.PendingAssignments;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.SpringApplication;

/**
 * The projector application, except that its JVM halts (no shutdown hook, no Kafka commit) the moment
 * its first batch has committed in PostgreSQL: a crash at the one point where the database is ahead of
 * the input offsets. Run in a process of its own by {@link ProjectorProcess}. (The halt is registered
 * by an initializer, not by a configuration class, which component scanning would give every projector.)
 */
public final class ProjectorHaltingAfterFirstWrite {

    /** The exit status of the halted JVM. */
    public static final int HALTED = 77;

    private ProjectorHaltingAfterFirstWrite() {
    }

    public static void main(String[] args) {
        SpringApplication application = new SpringApplication(ProjectorApplication.class);
        application.addInitializers(context -> context.getBeanFactory().addBeanPostProcessor(new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                if (!(bean instanceof PendingAssignments.Flusher flusher)) {
                    return bean;
                }
                return (PendingAssignments.Flusher) batch -> {
                    var refused = flusher.apply(batch);
                    System.out.printf("halting after a committed batch of %d events (%d cases)%n", batch.events(),
                            batch.kept().size());
                    System.out.flush();
                    Runtime.getRuntime().halt(HALTED);
                    return refused;
                };
            }
        }));
        application.run(args);
    }
}
