package org.caseassignments.api.testsupport;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmarks' HTTP/1.1 client: one keep-alive connection, one write per request with TCP_NODELAY, so
 * the measurement is the server's and not a client's Nagle/delayed-ACK stall (the JDK client sends headers
 * and body as separate segments, which cost ~40 ms per request on loopback). {@link #exchange} reads the body and
 * drops it; {@link #send} sends a request as written and keeps the whole answer (a fuzz's many requests).
 */
public final class KeepAliveHttp implements AutoCloseable {

    /** The status and the header fields (names in lower case) of an answer. */
    public record Response(int status, Map<String, String> headers) {
        public String header(String name) {
            return headers.get(name);
        }

        /** The server closes the connection after this answer (Tomcat does after a connection's last request). */
        public boolean closes() {
            return "close".equalsIgnoreCase(header("connection"));
        }
    }

    private final Socket socket;
    private final BufferedInputStream in;
    private final OutputStream out;

    private KeepAliveHttp(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    public static KeepAliveHttp open(int port) {
        try {
            Socket socket = new Socket("localhost", port);
            socket.setTcpNoDelay(true);
            return new KeepAliveHttp(socket);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends a request with a bearer token, the given header fields and a JSON body (none when null). */
    public Response exchange(String method, String path, String token, Map<String, String> fields, String json)
            throws IOException {
        byte[] body = json == null ? new byte[0] : json.getBytes(StandardCharsets.UTF_8);
        StringBuilder request = new StringBuilder(method).append(' ').append(path).append(" HTTP/1.1\r\n")
                .append("Host: localhost\r\nAuthorization: Bearer ").append(token).append("\r\n");
        fields.forEach((name, value) -> request.append(name).append(": ").append(value).append("\r\n"));
        if (json != null) {
            request.append("Content-Type: application/json\r\nContent-Length: ").append(body.length).append("\r\n");
        }
        write(request.append("\r\n").toString(), body);
        int status = status();
        Map<String, String> headers = byName(fields());
        body(headers);
        return new Response(status, headers);
    }

    /**
     * Sends {@code head} (request line and header lines, without the blank line; a {@code Host} is added when it has
     * none) and {@code body}, and reads the whole answer. After an answer that {@link RawHttp.Answer#closes() closes}
     * the connection, open another.
     */
    public RawHttp.Answer send(String head, byte[] body) throws IOException {
        String lines = head + (head.contains("\r\nHost:") ? "" : "\r\nHost: localhost")
                + (body.length > 0 ? "\r\nContent-Length: " + body.length : "") + "\r\n\r\n";
        write(lines, body);
        int status = status();
        List<String[]> fields = fields();
        return new RawHttp.Answer(status, fields, new String(body(byName(fields)), StandardCharsets.UTF_8));
    }

    /** Head and body in one write. */
    private void write(String head, byte[] body) throws IOException {
        byte[] bytes = head.getBytes(StandardCharsets.UTF_8);
        byte[] message = Arrays.copyOf(bytes, bytes.length + body.length);
        System.arraycopy(body, 0, message, bytes.length, body.length);
        out.write(message);
        out.flush();
    }

    private static Map<String, String> byName(List<String[]> fields) {
        Map<String, String> headers = new HashMap<>();
        fields.forEach(field -> headers.put(field[0].toLowerCase(Locale.ROOT), field[1]));
        return headers;
    }

    private int status() throws IOException {
        return Integer.parseInt(line().split(" ")[1]);
    }

    private List<String[]> fields() throws IOException {
        List<String[]> fields = new ArrayList<>();
        for (String line = line(); !line.isEmpty(); line = line()) {
            int colon = line.indexOf(':');
            fields.add(new String[] {line.substring(0, colon).trim(), line.substring(colon + 1).trim()});
        }
        return fields;
    }

    /** The answer's body, by its {@code Content-Length} or its chunks; header names in lower case. */
    private byte[] body(Map<String, String> headers) throws IOException {
        if (headers.containsKey("content-length")) {
            return in.readNBytes(Integer.parseInt(headers.get("content-length")));
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            for (int size = Integer.parseInt(line(), 16); size > 0; size = Integer.parseInt(line(), 16)) {
                body.writeBytes(in.readNBytes(size));
                line();
            }
            line();
        }
        return body.toByteArray();
    }

    private String line() throws IOException {
        StringBuilder line = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new EOFException("connection closed");
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // the benchmark is over
        }
    }
}
