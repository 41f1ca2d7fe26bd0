package org.caseassignments.projector;

import org.springframework.context.SmartLifecycle;

/**
 * Work that runs once the topics were created and before the Kafka Streams client starts: a lifecycle phase below
 * the Kafka Streams factory bean's ({@code Integer.MAX_VALUE - 1000}). What it throws stops the application.
 */
public abstract class BeforeStreamsStart implements SmartLifecycle {

    private volatile boolean running;

    /** The work; throws to refuse the start. */
    protected abstract void run();

    @Override
    public final void start() {
        run();
        running = true;
    }

    @Override
    public final void stop() {
        running = false;
    }

    @Override
    public final boolean isRunning() {
        return running;
    }

    @Override
    public final int getPhase() {
        return Integer.MAX_VALUE - 2000;
    }
}
