package org.caseassignments.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;

/** This machine's addresses and ports, for tests of which address a server listens on. */
public final class TestNetwork {

    private TestNetwork() {
    }

    /**
     * An address of this machine other than the loopback one: an interface's IPv4 address when there is one, else
     * {@code 127.0.0.2}, which Linux answers on the loopback interface but a server bound to {@code 127.0.0.1} does not.
     */
    public static InetAddress nonLoopbackAddress() {
        try {
            return NetworkInterface.networkInterfaces().filter(TestNetwork::up)
                    .flatMap(NetworkInterface::inetAddresses)
                    .filter(address -> address instanceof Inet4Address && !address.isLoopbackAddress())
                    .findFirst().orElse(InetAddress.getByName("127.0.0.2"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether a TCP connection to that address and port is accepted (false: refused). */
    public static boolean connects(InetAddress address, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), 2_000);
            return true;
        } catch (ConnectException refused) {
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A port nothing listens on at this moment. */
    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean up(NetworkInterface network) {
        try {
            return network.isUp();
        } catch (SocketException e) {
            return false;
        }
    }
}
