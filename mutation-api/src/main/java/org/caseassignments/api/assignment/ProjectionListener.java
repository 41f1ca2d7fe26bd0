package org.caseassignments.api.assignment;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import org.caseassignments.store.AssignmentWriter;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One thread, on one connection of its own outside the pool, that hears each commit of the projector that moved a
 * case ({@code LISTEN} on {@link AssignmentWriter#MOVED_CHANNEL}) and runs {@code onCommit}. It only listens: the
 * recheck of the waiters runs elsewhere, on its own thread, so a listener that hangs delays nothing but the
 * notifications. The connection has the pool's settings and a socket timeout ({@link ListenerConnections}); between
 * notifications it is probed with a one-round-trip statement, so a connection that went silent is noticed within
 * the timeout and opened again.
 */
final class ProjectionListener {

    /** Opens the listener's connection. */
    @FunctionalInterface
    interface Connections {
        Connection open() throws SQLException;
    }

    private static final Logger log = LoggerFactory.getLogger(ProjectionListener.class);

    private final Connections connections;
    private final Duration poll;
    private final Runnable onCommit;
    private volatile boolean running;
    private Thread thread;

    ProjectionListener(Connections connections, Duration poll, Runnable onCommit) {
        this.connections = connections;
        this.poll = poll;
        this.onCommit = onCommit;
    }

    void start() {
        running = true;
        thread = new Thread(this::listen, "projection-wait-listener");
        thread.setDaemon(true);
        thread.start();
    }

    void stop() {
        running = false;
        if (thread != null) {
            thread.interrupt();
        }
    }

    private void listen() {
        while (running) {
            try (Connection connection = connections.open();
                 Statement statement = connection.createStatement()) {
                statement.execute("LISTEN " + AssignmentWriter.MOVED_CHANNEL);
                PGConnection notifications = connection.unwrap(PGConnection.class);
                while (running) {
                    PGNotification[] heard = notifications.getNotifications((int) Math.max(1, poll.toMillis()));
                    if (heard != null && heard.length > 0) {
                        onCommit.run();
                    } else {
                        // nothing heard: is the connection still there? Times out (socket timeout) when it hangs
                        statement.execute("SELECT 1");
                    }
                }
            } catch (SQLException | RuntimeException e) {
                if (running) {
                    log.warn("Listening for the projector's commits failed ({}); the waiting requests are read again "
                            + "every {} until the listener is back", e.getMessage(), poll);
                    pause();
                }
            }
        }
    }

    /** Before opening the connection again, so a database that refuses it is not asked in a tight loop. */
    private void pause() {
        try {
            Thread.sleep(poll.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }
}
