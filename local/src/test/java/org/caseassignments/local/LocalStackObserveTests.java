package org.caseassignments.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ./run --observe} leaves no Pushgateway or Prometheus running that it started: not when Prometheus does not
 * start, not when the stack is stopped while Prometheus starts, and not when the Pushgateway is a wrapper script
 * around the real binary.
 */
class LocalStackObserveTests {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    private final ExecutorService observing = Executors.newSingleThreadExecutor();

    @AfterEach
    void stopWhatAFailedTestLeftRunning() throws IOException {
        observing.shutdownNow();
        for (long pid : pids()) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void shouldStopThePushgatewayItStartedWithItsChildWhenPrometheusExitsAtOnce() throws Exception {
        // Given a Pushgateway installed as a wrapper script around the binary, and a Prometheus that exits at once,
        // as it does when its port is taken
        Map<String, String> installed = Map.of("PUSHGATEWAY", wrapperAroundAReadyServer().toString(),
                "PROMETHEUS", script("prometheus", "echo 'listen tcp localhost:9090: bind: address already in use' >&2\n"
                        + "exit 1").toString());

        // When
        LocalStack.Observed observed = stack().observe(installed, dir.resolve("logs"));

        // Then the stack goes on without either, and none of their processes runs on
        assertThat(observed).isEqualTo(LocalStack.Observed.NONE);
        assertThat(pids()).as("the Pushgateway's wrapper and binary, whose pids they wrote").hasSize(2);
        assertThat(running()).as("processes still running").isEmpty();
    }

    @Test
    void shouldStopThePushgatewayAndPrometheusWhenTheStackIsStoppedWhilePrometheusStarts() throws Exception {
        // Given a Pushgateway that gets ready, and a Prometheus that never does
        Map<String, String> installed = Map.of("PUSHGATEWAY", wrapperAroundAReadyServer().toString(),
                "PROMETHEUS", script("prometheus", "echo $$ > '" + dir.resolve("prometheus.pid") + "'\nexec sleep 600").toString());
        LocalStack stack = stack();
        Future<LocalStack.Observed> observed = observing.submit(() -> stack.observe(installed, dir.resolve("logs")));
        await().atMost(Duration.ofSeconds(60)).until(() -> pids().size() == 3);

        // When the stack stops (Ctrl-C, SIGTERM: its shutdown hook) while it waits for Prometheus
        stack.stopAll();

        // Then nothing it started runs on, and it goes on without Prometheus
        assertThat(running()).as("processes still running").isEmpty();
        assertThat(observed.get(30, TimeUnit.SECONDS)).isEqualTo(LocalStack.Observed.NONE);
    }

    private LocalStack stack() {
        LocalStack stack = new LocalStack();
        stack.dataDir = dir.resolve("data");
        stack.root = ROOT;
        stack.projectorPort = 18081;
        stack.apiPort = 18080;
        return stack;
    }

    /** A Pushgateway behind a wrapper that runs it as its child (not with exec); both write their pids. */
    private Path wrapperAroundAReadyServer() throws IOException {
        return script("pushgateway", "echo $$ > '" + dir.resolve("pushgateway-wrapper.pid") + "'\n'" + ChildProcess.java()
                + "' -cp '" + RunbookSubjects.testClasspath() + "' -Dpid.file='" + dir.resolve("pushgateway.pid")
                + "' " + ReadyServer.class.getName() + " \"$@\"\n");
    }

    private Path script(String name, String body) throws IOException {
        Path script = Files.createDirectories(dir.resolve("bin")).resolve(name);
        Files.writeString(script, "#!/bin/sh\n" + body + "\n");
        assertThat(script.toFile().setExecutable(true)).isTrue();
        return script;
    }

    /** The pids the stand-ins wrote so far. */
    private List<Long> pids() throws IOException {
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".pid")).toList()) {
                String pid = Files.readString(file).strip();
                if (!pid.isEmpty()) {
                    pids.add(Long.parseLong(pid));
                }
            }
        }
        return pids;
    }

    /** Those of them still running: alive and not a zombie waiting to be reaped. */
    private List<Long> running() throws IOException {
        List<Long> running = new ArrayList<>();
        for (long pid : pids()) {
            if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false) && !zombie(pid)) {
                running.add(pid);
            }
        }
        return running;
    }

    private static boolean zombie(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "stat")).replaceFirst("^.*\\) ", "").startsWith("Z");
        } catch (IOException goneOrNoProc) {
            return false;
        }
    }
}
