package org.caseassignments.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TCP proxy between a service and a test's PostgreSQL, in plain Java sockets, that the test controls: it forwards
 * every connection until told otherwise. It can stall new connections (accepted, never answered: a server that
 * hangs), cut the connections that ran {@code LISTEN} (a network that drops them), and freeze open connections:
 * stop forwarding in both directions without closing either side, as a half-open socket behind a dead router or a
 * paused VM does. A frozen connection stays frozen until the proxy closes; connections opened after the freeze are
 * forwarded. Made with a delay, it holds what each side sends for that long before passing it on, in both directions:
 * the network between a service and a database on another host (a benchmark's, not a test's, use). With a delay, what
 * was read before a {@code freeze*()} is already queued and is still delivered, up to one delay later; and an end of
 * stream from either side closes the whole connection once what came before it is delivered (PostgreSQL and its
 * driver never half-close a connection, so nothing is lost by it).
 */
public final class DatabaseProxy implements AutoCloseable {

    private static final byte[] LISTEN = "LISTEN ".getBytes(StandardCharsets.US_ASCII);

    /** One forwarded connection; {@code listening} once its client sent a {@code LISTEN}. */
    private static final class Pair {
        private final Socket client;
        private final Socket upstream;
        /** The writers of its delayed directions, stopped when it closes. */
        private final List<Thread> writers = new CopyOnWriteArrayList<>();
        private volatile boolean listening;
        private volatile boolean frozen;

        private Pair(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        private synchronized void freeze() {
            frozen = true;
        }

        /** Blocks the pump while the pair is frozen; false once it must stop. */
        private synchronized boolean awaitThaw() {
            while (frozen) {
                try {
                    wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }

        private void close() {
            synchronized (this) {
                frozen = false;
                notifyAll();
            }
            closeQuietly(client);
            closeQuietly(upstream);
            writers.forEach(Thread::interrupt);
        }
    }

    /**
     * One direction of a pair with a delay: each chunk read is queued with the time it is due, and one thread writes
     * the chunks in the order they were read, each at its time. The delay is a latency added once per chunk (a link's
     * propagation delay), never a cost per byte; the end of the stream is passed on after what came before it. At most
     * {@link #IN_FLIGHT} bytes wait in a direction: past that its pump stops reading, and the sender feels TCP's
     * back-pressure as it would from a slow link.
     */
    private final class DelayedForward {
        private record Chunk(long due, byte[] bytes) {
        }

        private static final Chunk END = new Chunk(0, null);
        private static final int IN_FLIGHT = 1 << 20;

        private final BlockingQueue<Chunk> chunks = new LinkedBlockingQueue<>();
        private final Semaphore room = new Semaphore(IN_FLIGHT);

        private DelayedForward(Pair pair, Socket to) {
            Thread thread = new Thread(() -> {
                try (OutputStream out = to.getOutputStream()) {
                    for (Chunk chunk = chunks.take(); chunk != END; chunk = chunks.take()) {
                        for (long wait = chunk.due - System.nanoTime(); wait > 0; wait = chunk.due - System.nanoTime()) {
                            LockSupport.parkNanos(wait);
                        }
                        out.write(chunk.bytes);
                        out.flush();
                        room.release(chunk.bytes.length);
                    }
                } catch (IOException | InterruptedException e) {
                    // one side went away, or the proxy closes: so does the pair
                } finally {
                    room.release(IN_FLIGHT); // a pump waiting for room goes on, to find its pair closed
                    drop(pair);
                }
            }, "database-proxy-delay-" + server.getLocalPort());
            thread.setDaemon(true);
            pair.writers.add(thread);
            thread.start();
        }

        /** Queues what was read, once there is room for it. */
        private void send(byte[] buffer, int length) throws InterruptedException {
            room.acquire(length);
            chunks.add(new Chunk(System.nanoTime() + delay.toNanos(), Arrays.copyOf(buffer, length)));
        }

        /** The writer stops after what is queued: at once if the pair is closed, since its writes fail. */
        private void end() {
            chunks.add(END);
        }
    }

    private final Duration delay;
    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final String jdbcUrl;
    private final Set<Pair> pairs = ConcurrentHashMap.newKeySet();
    private final Set<Socket> held = ConcurrentHashMap.newKeySet();
    private final AtomicInteger stalled = new AtomicInteger();
    private volatile boolean stalling;

    private DatabaseProxy(String jdbcUrl, Duration delay) throws IOException {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("a proxy cannot deliver before it reads: delay " + delay);
        }
        this.delay = delay;
        Matcher address = Pattern.compile("//([^:/]+):(\\d+)/").matcher(jdbcUrl);
        if (!address.find()) {
            throw new IllegalArgumentException("no host and port in " + jdbcUrl);
        }
        this.targetHost = address.group(1);
        this.targetPort = Integer.parseInt(address.group(2));
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.jdbcUrl = jdbcUrl.replaceFirst("//[^/]+/", "//localhost:" + server.getLocalPort() + "/");
        Thread acceptor = new Thread(this::accept, "database-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A proxy in front of this database. */
    public static DatabaseProxy inFrontOf(TestDatabase db) {
        return inFrontOf(db, Duration.ZERO);
    }

    /** A proxy in front of this database that passes on what either side sends {@code oneWay} after reading it. */
    public static DatabaseProxy inFrontOf(TestDatabase db, Duration oneWay) {
        try {
            return new DatabaseProxy(db.jdbcUrl(), oneWay);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What the proxy adds to each direction. */
    public Duration delay() {
        return delay;
    }

    /** The database's JDBC URL through the proxy. */
    public String jdbcUrl() {
        return jdbcUrl;
    }

    public int port() {
        return server.getLocalPort();
    }

    /** New connections are accepted and then never answered, until {@link #forwardNewConnections()}. */
    public void stallNewConnections() {
        stalling = true;
    }

    public void forwardNewConnections() {
        stalling = false;
        held.forEach(DatabaseProxy::closeQuietly);
        held.clear();
    }

    /** Connections accepted while stalling. */
    public int stalledConnections() {
        return stalled.get();
    }

    /** Closes every connection that ran {@code LISTEN}, as a network that drops them would. */
    public void cutListeners() {
        pairs.stream().filter(pair -> pair.listening).forEach(pair -> {
            pair.close();
            pairs.remove(pair);
        });
    }

    /** Freezes every open connection; returns how many. */
    public int freezeOpenConnections() {
        return freeze(pair -> true);
    }

    /** Freezes every open connection that ran {@code LISTEN}; returns how many. */
    public int freezeListeners() {
        return freeze(pair -> pair.listening);
    }

    /** Open connections that ran {@code LISTEN} and are forwarded (not frozen). */
    public long forwardedListeners() {
        return pairs.stream().filter(pair -> pair.listening && !pair.frozen).count();
    }

    private int freeze(Predicate<Pair> which) {
        int frozen = 0;
        for (Pair pair : pairs) {
            if (which.test(pair)) {
                pair.freeze();
                frozen++;
            }
        }
        return frozen;
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (stalling) {
                    stalled.incrementAndGet();
                    held.add(client);
                    continue;
                }
                Socket upstream = new Socket();
                try {
                    // as the driver and the server do: a small message goes out when written, not held for an ACK
                    client.setTcpNoDelay(true);
                    upstream.setTcpNoDelay(true);
                    upstream.connect(new InetSocketAddress(targetHost, targetPort));
                } catch (IOException e) {
                    // the target refused: the client sees its connection end
                    closeQuietly(upstream);
                    closeQuietly(client);
                    continue;
                }
                Pair pair = new Pair(client, upstream);
                pairs.add(pair);
                pump(pair, pair.client, pair.upstream, true);
                pump(pair, pair.upstream, pair.client, false);
            } catch (IOException e) {
                // the proxy closed
            }
        }
    }

    private void pump(Pair pair, Socket from, Socket to, boolean fromClient) {
        DelayedForward delayed = delay.isZero() ? null : new DelayedForward(pair, to);
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16384];
            boolean ended = false;
            try (InputStream in = from.getInputStream()) {
                OutputStream out = to.getOutputStream();
                for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                    if (fromClient && contains(buffer, read)) {
                        pair.listening = true;
                    }
                    // frozen: what was read is held, and nothing more is read, until the proxy closes
                    if (!pair.awaitThaw() || from.isClosed()) {
                        return;
                    }
                    if (delayed == null) {
                        out.write(buffer, 0, read);
                        out.flush();
                    } else {
                        delayed.send(buffer, read);
                    }
                }
                ended = true;
            } catch (IOException e) {
                // one side went away: so does the other
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                if (!ended || delayed == null) {
                    drop(pair);
                }
                if (delayed != null) {
                    // on a clean end, the pair closes once what was read before the end is passed on
                    delayed.end();
                }
            }
        }, "database-proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    private void drop(Pair pair) {
        pair.close();
        pairs.remove(pair);
    }

    private static boolean contains(byte[] buffer, int length) {
        outer:
        for (int i = 0; i + LISTEN.length <= length; i++) {
            for (int j = 0; j < LISTEN.length; j++) {
                if (buffer[i + j] != LISTEN[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    /** Closes every connection, and stops the writers of their delayed directions. */
    @Override
    public void close() {
        forwardNewConnections();
        pairs.forEach(Pair::close);
        try {
            server.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
