package org.caseassignments.local;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One of the service's own executable jars, started as in production and awaited until its readiness probe says UP; or
 * another server beside them (Prometheus) awaited the same way.
 */
final class ServiceProcess implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(180);

    private final String name;
    private final ChildProcess process;
    private final URI readiness;

    private ServiceProcess(String name, ChildProcess process, URI readiness) {
        this.name = name;
        this.process = process;
        this.readiness = readiness;
    }

    /**
     * @param module       the Maven module whose {@code target/<module>-*-exec.jar} to run
     * @param healthPort   the port that serves the readiness probe {@code /readyz}
     */
    static ServiceProcess start(Path root, String module, Map<String, String> environment, int healthPort, Path logDir)
            throws IOException {
        Path jar = executableJar(root, module);
        List<String> command = new ArrayList<>(List.of(ChildProcess.java(), "-Xmx384m", "-XX:TieredStopAtLevel=1",
                "-jar", jar.toString()));
        ChildProcess process = ChildProcess.start(module, command, environment, logDir);
        return of(module, process, URI.create("http://localhost:" + healthPort + "/readyz"));
    }

    /** A process already started, ready when {@code readiness} answers 200. */
    static ServiceProcess of(String name, ChildProcess process, URI readiness) {
        return new ServiceProcess(name, process, readiness);
    }

    static Path executableJar(Path root, String module) throws IOException {
        Path target = root.resolve(module).resolve("target");
        if (Files.isDirectory(target)) {
            try (DirectoryStream<Path> jars = Files.newDirectoryStream(target, module + "-*-exec.jar")) {
                for (Path jar : jars) {
                    return jar;
                }
            }
        }
        throw new IllegalStateException("No executable jar in " + target + ": build first with "
                + "./mvnw -B -ntp -DskipTests package (the ./run script does)");
    }

    void awaitReady() throws InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        Instant deadline = Instant.now().plus(READY_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            process.checkAlive();
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(readiness)
                        .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            TimeUnit.MILLISECONDS.sleep(300);
        }
        throw new IllegalStateException(name + " was not ready at " + readiness + " within "
                + READY_TIMEOUT.toSeconds() + " s; see " + process.log());
    }

    @Override
    public void close() {
        process.close();
    }
}
