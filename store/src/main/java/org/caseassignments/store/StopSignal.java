package org.caseassignments.store;

/**
 * Tells a {@link BatchWriter} to give up: once raised, the writer throws after a failed attempt instead of retrying,
 * and begins no further transaction of an isolation ({@link BatchIsolation.Stopped}). Raised by whatever stops the
 * application (the projector, before Kafka Streams closes), so that a write that cannot reach PostgreSQL does not hold
 * the shutdown; the writer reads it and calls no one.
 */
public final class StopSignal {

    private volatile boolean raised;

    /** The writer gives up from now on. */
    public void raise() {
        raised = true;
    }

    /** The writer retries again (the application started again). */
    public void lower() {
        raised = false;
    }

    public boolean raised() {
        return raised;
    }
}
