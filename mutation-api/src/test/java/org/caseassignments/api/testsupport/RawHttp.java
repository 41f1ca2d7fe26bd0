package org.caseassignments.api.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * HTTP/1.1 over a plain socket, for requests {@code java.net.http} refuses to send: raw request
 * targets, unknown methods, control characters, oversized headers. One request per connection.
 */
public final class RawHttp {

    private final int port;

    public RawHttp(int port) {
        this.port = port;
    }

    /** Sends {@code head} (request line and header lines, without the blank line) and {@code body}. */
    public Answer send(String head, byte[] body) {
        try (Socket socket = new Socket("localhost", port)) {
            // Generous: the first /v3/api-docs of a context builds the document, seconds on a loaded machine.
            socket.setSoTimeout(60_000);
            OutputStream out = socket.getOutputStream();
            String withHost = head.contains("\r\nHost:") ? head : head.replaceFirst("\r\n|$", "\r\nHost: localhost\r\n");
            String lines = (withHost.endsWith("\r\n") ? withHost : withHost + "\r\n")
                    + "Connection: close\r\n" + (body.length > 0 ? "Content-Length: " + body.length + "\r\n" : "") + "\r\n";
            try {
                out.write(lines.getBytes(StandardCharsets.ISO_8859_1));
                out.write(body);
                out.flush();
            } catch (java.net.SocketException e) {
                // the server answered and closed before reading everything (a request it refused): read that answer
            }
            return Answer.parse(readAll(socket.getInputStream()));
        } catch (IOException e) {
            throw new IllegalStateException("raw request failed: " + head.lines().findFirst().orElse(""), e);
        }
    }

    public Answer send(String head) {
        return send(head, new byte[0]);
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            for (int n; (n = in.read(buffer)) >= 0; ) {
                all.write(buffer, 0, n);
            }
        } catch (java.net.SocketException e) {
            // the server may reset after answering a request it refused; what arrived is the answer
            if (all.size() == 0) {
                throw e;
            }
        }
        return all.toByteArray();
    }

    /** A parsed answer: status, header lines, body (de-chunked). */
    public record Answer(int status, List<String[]> headers, String body) {

        static Answer parse(byte[] raw) {
            String text = new String(raw, StandardCharsets.ISO_8859_1);
            int end = text.indexOf("\r\n\r\n");
            if (end < 0) {
                throw new IllegalStateException("no complete answer: " + text);
            }
            String[] lines = text.substring(0, end).split("\r\n");
            int status = Integer.parseInt(lines[0].split(" ")[1]);
            List<String[]> headers = new ArrayList<>();
            boolean chunked = false;
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                String name = lines[i].substring(0, colon).trim();
                String value = lines[i].substring(colon + 1).trim();
                headers.add(new String[] {name, value});
                chunked |= name.equalsIgnoreCase("Transfer-Encoding") && value.toLowerCase(Locale.ROOT).contains("chunked");
            }
            byte[] rest = text.substring(end + 4).getBytes(StandardCharsets.ISO_8859_1);
            return new Answer(status, headers, new String(chunked ? dechunk(rest) : rest, StandardCharsets.UTF_8));
        }

        private static byte[] dechunk(byte[] chunked) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            String text = new String(chunked, StandardCharsets.ISO_8859_1);
            int at = 0;
            while (at < text.length()) {
                int lineEnd = text.indexOf("\r\n", at);
                if (lineEnd < 0) {
                    break;
                }
                int size = Integer.parseInt(text.substring(at, lineEnd).split(";")[0].trim(), 16);
                if (size == 0) {
                    break;
                }
                out.writeBytes(text.substring(lineEnd + 2, lineEnd + 2 + size).getBytes(StandardCharsets.ISO_8859_1));
                at = lineEnd + 2 + size + 2;
            }
            return out.toByteArray();
        }

        public Optional<String> header(String name) {
            return headers.stream().filter(h -> h[0].equalsIgnoreCase(name)).map(h -> h[1]).findFirst();
        }

        /** The server closes the connection after this answer. */
        public boolean closes() {
            return header("Connection").filter("close"::equalsIgnoreCase).isPresent();
        }

        public String contentType() {
            return header("Content-Type").orElse("");
        }

        @Override
        public String toString() {
            return status + " " + headers.stream().map(h -> h[0] + ": " + h[1]).toList() + " " + body;
        }
    }
}
