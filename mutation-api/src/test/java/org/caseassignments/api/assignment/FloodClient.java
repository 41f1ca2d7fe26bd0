package org.caseassignments.api.assignment;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * The load generator of {@link WaitsBoundedPerformance}'s floods: each request on a TCP connection of its own, all
 * of them open at once, driven by one selector thread that writes a prepared HTTP/1.1 {@code GET} and reads the
 * answer's status line, headers and body (by {@code Content-Length}, chunked, or to the end of the connection), then
 * closes the connection. It does what {@code java.net.http.HttpClient} did for the program, without its per-request
 * machinery (request and response objects, header maps, a pool of connections, futures on an executor), so that the
 * clients take as little as possible of the cores they share with the API and PostgreSQL.
 */
final class FloodClient implements AutoCloseable {

    /** The status of a request whose connection failed: no answer. */
    static final int FAILED = -1;
    /** The status of a request not answered within the client's timeout: its connection is closed. */
    static final int TIMED_OUT = -2;

    /**
     * The answer of one request: its status ({@link #FAILED}, {@link #TIMED_OUT} when there was none), when it came,
     * how long it took.
     */
    record Answer(int status, long epochMicros, long micros) {

        boolean answered() {
            return status > 0;
        }
    }

    private static final byte[] HEADERS_END = {'\r', '\n', '\r', '\n'};
    private static final byte[] LAST_CHUNK = {'0', '\r', '\n', '\r', '\n'};

    private final Selector selector;
    private final ConcurrentLinkedQueue<Exchange> queued = new ConcurrentLinkedQueue<>();
    private final Thread io;
    private final long timeoutNanos;
    private volatile boolean running = true;

    /** A client whose every request ends by {@code timeout} at the latest, answered or not: a silent server ends it. */
    FloodClient(Duration timeout) throws IOException {
        this.timeoutNanos = timeout.toNanos();
        this.selector = Selector.open();
        this.io = new Thread(this::loop, "flood-client-io");
        io.setDaemon(true);
        io.start();
    }

    /** Sends {@code GET url} with the bearer token on a new connection; the answer completes when fully read. */
    CompletableFuture<Answer> get(String url, String token) {
        URI uri = URI.create(url);
        String target = uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
        byte[] request = ("GET " + target + " HTTP/1.1\r\nHost: " + uri.getHost() + ":" + uri.getPort()
                + "\r\nUser-Agent: waits-bounded-flood\r\nAuthorization: Bearer " + token + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        Exchange exchange = new Exchange(new InetSocketAddress(uri.getHost(), uri.getPort()), ByteBuffer.wrap(request),
                System.nanoTime() + timeoutNanos);
        queued.add(exchange);
        selector.wakeup();
        return exchange.answer;
    }

    private void loop() {
        while (running) {
            try {
                selector.select(100);
                for (Exchange exchange = queued.poll(); exchange != null; exchange = queued.poll()) {
                    exchange.open(selector);
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    Exchange exchange = (Exchange) key.attachment();
                    try {
                        exchange.ready(key);
                    } catch (IOException | RuntimeException e) {
                        exchange.end(FAILED);
                    }
                }
                selector.selectedKeys().clear();
                long now = System.nanoTime();
                for (SelectionKey key : Set.copyOf(selector.keys())) {
                    if (key.attachment() instanceof Exchange exchange && now - exchange.deadline > 0) {
                        exchange.end(TIMED_OUT);
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("the flood's selector failed", e);
            }
        }
    }

    @Override
    public void close() throws IOException {
        running = false;
        selector.wakeup();
        selector.close();
    }

    /** One request and its connection. */
    private static final class Exchange {
        private final InetSocketAddress address;
        private final ByteBuffer request;
        private final CompletableFuture<Answer> answer = new CompletableFuture<>();
        private final long started = System.nanoTime();
        private final long deadline;
        private ByteBuffer received = ByteBuffer.allocate(1024);
        private SocketChannel channel;

        Exchange(InetSocketAddress address, ByteBuffer request, long deadline) {
            this.address = address;
            this.request = request;
            this.deadline = deadline;
        }

        void open(Selector selector) {
            try {
                channel = SocketChannel.open();
                channel.configureBlocking(false);
                boolean connected = channel.connect(address);
                channel.register(selector, connected ? SelectionKey.OP_WRITE : SelectionKey.OP_CONNECT, this);
            } catch (IOException e) {
                end(FAILED);
            }
        }

        void ready(SelectionKey key) throws IOException {
            if (key.isConnectable()) {
                channel.finishConnect();
                key.interestOps(SelectionKey.OP_WRITE);
            } else if (key.isWritable()) {
                channel.write(request);
                if (!request.hasRemaining()) {
                    key.interestOps(SelectionKey.OP_READ);
                }
            } else if (key.isReadable()) {
                if (!received.hasRemaining()) {
                    received = ByteBuffer.allocate(received.capacity() * 2).put(received.flip());
                }
                int read = channel.read(received);
                int status = status();
                if (read < 0) {
                    end(status);
                } else if (status > 0 && complete()) {
                    end(status);
                }
            }
        }

        /** The status line's code once it has come, else 0. */
        private int status() {
            int lineEnd = indexOf(new byte[] {'\r', '\n'}, 0);
            if (lineEnd < 0) {
                return 0;
            }
            String[] line = new String(received.array(), 0, lineEnd, StandardCharsets.US_ASCII).split(" ", 3);
            return Integer.parseInt(line[1]);
        }

        /** Whether the headers and the whole body have come. */
        private boolean complete() {
            int headersEnd = indexOf(HEADERS_END, 0);
            if (headersEnd < 0) {
                return false;
            }
            int bodyStart = headersEnd + HEADERS_END.length;
            String headers = new String(received.array(), 0, headersEnd, StandardCharsets.US_ASCII)
                    .toLowerCase(Locale.ROOT);
            for (String header : headers.split("\r\n")) {
                if (header.startsWith("content-length:")) {
                    return received.position() - bodyStart >= Integer.parseInt(header.substring(15).strip());
                }
                if (header.startsWith("transfer-encoding:") && header.contains("chunked")) {
                    return received.position() >= bodyStart + LAST_CHUNK.length
                            && indexOf(LAST_CHUNK, received.position() - LAST_CHUNK.length) >= 0;
                }
            }
            return false; // neither: the body ends with the connection
        }

        private int indexOf(byte[] wanted, int from) {
            byte[] bytes = received.array();
            for (int i = from; i <= received.position() - wanted.length; i++) {
                int matched = 0;
                while (matched < wanted.length && bytes[i + matched] == wanted[matched]) {
                    matched++;
                }
                if (matched == wanted.length) {
                    return i;
                }
            }
            return -1;
        }

        void end(int status) {
            try {
                channel.close();
            } catch (IOException | RuntimeException e) {
                // the answer is what counts; the connection is gone either way
            }
            answer.complete(new Answer(status == 0 ? FAILED : status, ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now()),
                    TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - started)));
        }
    }
}
