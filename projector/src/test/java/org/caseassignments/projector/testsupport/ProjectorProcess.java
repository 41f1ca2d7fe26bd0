package org.caseassignments.projector.testsupport;

import org.caseassignments.projector.ProjectorApplication;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The projector application in a JVM of its own, so a test can kill it abruptly (SIGKILL): no
 * shutdown hook, no graceful close, no final commit — a crash. Its output goes to a file under
 * {@code target/}.
 */
public final class ProjectorProcess implements AutoCloseable {

    /** A small heap and the quick compiler: tests start many short-lived projectors. */
    private static final List<String> TEST_JVM = List.of("-Xmx384m", "-XX:TieredStopAtLevel=1");

    private final Process process;
    public final Path log;

    private ProjectorProcess(Process process, Path log) {
        this.process = process;
        this.log = log;
    }

    public static ProjectorProcess start(Map<String, String> properties) {
        return start(ProjectorApplication.class, properties);
    }

    /** Runs {@code main}'s main method, which must start the projector application. */
    public static ProjectorProcess start(Class<?> main, Map<String, String> properties) {
        return start(main, TEST_JVM, System.getProperty("java.class.path"), properties);
    }

    /**
     * Runs {@code main}'s main method in a JVM started with {@code jvmOptions} (e.g. a heap limit and a GC log).
     * The probes and the actuator listen on any free port unless {@code properties} name their ports.
     */
    public static ProjectorProcess start(Class<?> main, List<String> jvmOptions, Map<String, String> properties) {
        return start(main, jvmOptions, System.getProperty("java.class.path"), properties);
    }

    /**
     * The projector logging as it is deployed: without the tests' logging configuration (testkit's), and without a
     * {@code LOG_FORMAT} of the environment the tests run in.
     */
    public static ProjectorProcess startLoggingAsDeployed(Map<String, String> properties) {
        String classpath = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.contains("testkit") && !entry.endsWith("test-classes"))
                .collect(Collectors.joining(File.pathSeparator));
        return start(ProjectorApplication.class, TEST_JVM, classpath, properties);
    }

    private static ProjectorProcess start(Class<?> main, List<String> jvmOptions, String classpath,
                                          Map<String, String> properties) {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", classpath, main.getName()));
        // Any free ports by default: another build on the machine may run a projector on 8081.
        Map<String, String> arguments = new java.util.LinkedHashMap<>(Map.of("server.port", "0", "management.server.port", "0"));
        arguments.putAll(properties);
        arguments.forEach((key, value) -> command.add("--" + key + "=" + value));
        try {
            Path log = Files.createTempFile(Path.of("target"), "projector-process-", ".log");
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).directory(new File("."));
            builder.environment().remove("LOG_FORMAT");
            Process process = builder.start();
            return new ProjectorProcess(process, log);
        } catch (IOException e) {
            throw new IllegalStateException("Cannot start a projector process: " + e.getMessage(), e);
        }
    }

    /** Kills the process with SIGKILL and waits until it is gone. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the killed projector to exit", e);
        }
    }

    /** Waits for the process to end by itself; its exit status, or fails after {@code timeout}. */
    public int awaitExit(java.time.Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("The projector process did not end within " + timeout + " (log: " + log + ")");
            }
            return process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the projector process to end", e);
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** The operating system's id of the process, e.g. to read its {@code /proc} entries. */
    public long pid() {
        return process.pid();
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }
}
