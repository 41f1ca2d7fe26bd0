package org.caseassignments.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

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

    @Override
    public void close() {
        if (!process.isAlive()) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
