package org.caseassignments.local;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import com.sun.net.httpserver.HttpServer;

/**
 * A stand-in for a server the local stack starts and awaits (a Pushgateway): it writes its pid to the file the system
 * property {@code pid.file} names, then answers 200 to everything, {@code /-/ready} included, on the port of its
 * {@code --web.listen-address=host:port}, until it is stopped.
 */
final class ReadyServer {

    private ReadyServer() {
    }

    public static void main(String[] args) throws Exception {
        int port = Arrays.stream(args).filter(argument -> argument.startsWith("--web.listen-address="))
                .map(argument -> Integer.parseInt(argument.substring(argument.lastIndexOf(':') + 1)))
                .findFirst().orElseThrow(() -> new IllegalArgumentException("no --web.listen-address in " + Arrays.toString(args)));
        Files.writeString(Path.of(System.getProperty("pid.file")), Long.toString(ProcessHandle.current().pid()));
        HttpServer server = HttpServer.create(new InetSocketAddress("localhost", port), 0);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
    }
}
