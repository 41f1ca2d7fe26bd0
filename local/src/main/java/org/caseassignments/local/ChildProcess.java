package org.caseassignments.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** A child JVM whose output goes to a log file in the data folder; stopped gracefully (SIGTERM), then forcibly. */
final class ChildProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path log;

    private ChildProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    static ChildProcess start(String name, List<String> command, Map<String, String> environment, Path logDir)
            throws IOException {
        Files.createDirectories(logDir);
        Path log = logDir.resolve(name + ".log");
        ProcessBuilder builder = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        builder.environment().putAll(environment);
        return new ChildProcess(name, builder.start(), log);
    }

    /** The java executable of this JVM, so children run on the same JDK. */
    static String java() {
        return ProcessHandle.current().info().command().orElse("java");
    }

    /** Waits for a short-lived child (such as a formatting tool) and fails unless it exits 0. */
    void waitFor(java.time.Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException(name + " did not finish within " + timeout.toSeconds() + " s; see " + log);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(name + " exited with code " + process.exitValue() + "; see " + log);
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Fails with the tail of the log when the process has died. */
    void checkAlive() {
        if (!process.isAlive()) {
            throw new IllegalStateException(name + " exited with code " + process.exitValue() + "; see " + log);
        }
    }

    Path log() {
        return log;
    }

    /**
     * Stops the process (SIGTERM, then SIGKILL after 30 s) and then whatever it started that still runs: a binary an
     * operator installed may be a wrapper script around the real one (a package's shim), which SIGTERM ends without
     * its child.
     */
    @Override
    public void close() {
        // its children are no longer its descendants once it has exited: name them first
        List<ProcessHandle> children = process.descendants().toList();
        stop(process.toHandle());
        children.forEach(ChildProcess::stop);
    }

    private static void stop(ProcessHandle process) {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            process.onExit().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException stillRunning) {
            process.destroyForcibly();
            try {
                process.onExit().get(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                // SIGKILL sent: nothing more to do
            }
        }
    }
}
