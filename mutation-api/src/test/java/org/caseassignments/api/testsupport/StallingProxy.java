package org.caseassignments.api.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy in front of PostgreSQL that a test controls: it forwards every connection until told to stall new
 * ones (accepted, never answered: a server that hangs), and it can cut the connections that ran {@code LISTEN}.
 */
public final class StallingProxy implements AutoCloseable {

    private static final byte[] LISTEN = "LISTEN ".getBytes(StandardCharsets.US_ASCII);

    /** One forwarded connection; {@code listening} once its client sent a {@code LISTEN}. */
    private static final class Pair {
        private final Socket client;
        private final Socket upstream;
        private volatile boolean listening;

        private Pair(Socket client, Socket upstream) {
            this.client = client;
            this.upstream = upstream;
        }

        private void close() {
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }

    private final ServerSocket server;
    private final String targetHost;
    private final int targetPort;
    private final Set<Pair> pairs = ConcurrentHashMap.newKeySet();
    private final Set<Socket> held = ConcurrentHashMap.newKeySet();
    private final AtomicInteger stalled = new AtomicInteger();
    private volatile boolean stalling;

    public StallingProxy(String targetHost, int targetPort) throws IOException {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        Thread acceptor = new Thread(this::accept, "stalling-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
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
        held.forEach(StallingProxy::closeQuietly);
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

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                if (stalling) {
                    stalled.incrementAndGet();
                    held.add(client);
                    continue;
                }
                Pair pair = new Pair(client, new Socket(targetHost, targetPort));
                pairs.add(pair);
                pump(pair, pair.client, pair.upstream, true);
                pump(pair, pair.upstream, pair.client, false);
            } catch (IOException e) {
                // closed, or the target refused: the client sees its connection end
            }
        }
    }

    private void pump(Pair pair, Socket from, Socket to, boolean fromClient) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                    if (fromClient && contains(buffer, read)) {
                        pair.listening = true;
                    }
                    out.write(buffer, 0, read);
                    out.flush();
                }
            } catch (IOException e) {
                // one side went away: so does the other
            } finally {
                pair.close();
                pairs.remove(pair);
            }
        }, "stalling-proxy-pump");
        thread.setDaemon(true);
        thread.start();
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
