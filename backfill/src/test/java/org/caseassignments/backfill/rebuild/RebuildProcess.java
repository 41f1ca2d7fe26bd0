package org.caseassignments.backfill.rebuild;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.caseassignments.backfill.BackfillApplication;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;

/**
 * {@code backfill-cli} in a JVM of its own, on the tests' classpath, against the test database and broker: a run a
 * test can freeze (SIGSTOP) and thaw (SIGCONT) as an operator's machine would be, or run beside one in-process.
 */
final class RebuildProcess implements AutoCloseable {

    private final Process process;
    private final Path output;

    private RebuildProcess(Process process, Path output) {
        this.process = process;
        this.output = output;
    }

    static RebuildProcess start(TestDatabase database, String... arguments) {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"),
                "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path")));
        Map<String, String> properties = new java.util.LinkedHashMap<>(database.springProperties());
        properties.put("spring.kafka.bootstrap-servers", TestKafka.bootstrapServers());
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.add(BackfillApplication.class.getName());
        command.addAll(List.of(arguments));
        try {
            Path output = Files.createTempFile(Path.of("target"), "rebuild-process-", ".log");
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                    .directory(new File(".")).start();
            return new RebuildProcess(process, output);
        } catch (IOException e) {
            throw new IllegalStateException("cannot start backfill-cli: " + e.getMessage(), e);
        }
    }

    long pid() {
        return process.pid();
    }

    /** SIGSTOP: every thread of the JVM stops where it is, its sockets stay open. */
    void freeze() {
        signal("-STOP");
    }

    /** SIGCONT. */
    void thaw() {
        signal("-CONT");
    }

    int awaitExit(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("backfill-cli did not end within " + timeout + ":\n" + output());
        }
        return process.exitValue();
    }

    String output() {
        try {
            return Files.readString(output);
        } catch (IOException e) {
            return "(no output: " + e + ")";
        }
    }

    private void signal(String signal) {
        try {
            int exit = new ProcessBuilder("kill", signal, Long.toString(process.pid())).inheritIO().start().waitFor();
            if (exit != 0) {
                throw new IllegalStateException("kill " + signal + " " + process.pid() + " exited " + exit);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot signal backfill-cli: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while signalling backfill-cli", e);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            thaw();
            process.destroyForcibly();
        }
    }
}
