package org.caseassignments.api.testsupport;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;

/**
 * The benchmarks' warm-up: windows of {@code bench.window} (10 s) until the JVM has settled, that is two
 * consecutive windows differ by less than {@code bench.stable} (3 %) in throughput and the JIT compiler
 * spent at most {@code bench.jit-share} (5 %) of this JVM's CPU time in the second one (at least three
 * windows, at most {@code bench.max-warmup}, 300 s). Throughput alone stops too early: it climbs a few
 * per cent a window for minutes while the compiler is still working through a request path, and a form
 * measured then is measured half-compiled.
 */
public final class WarmUp {

    /** Runs one window of the form being warmed up and returns its requests per second. */
    @FunctionalInterface
    public interface Window {
        double run(String name, Duration length) throws Exception;
    }

    private WarmUp() {
    }

    public static void untilSettled(String name, Window window) throws Exception {
        Duration length = Duration.ofSeconds(Long.getLong("bench.window", 10));
        double stable = Double.parseDouble(System.getProperty("bench.stable", "0.03"));
        double jitShare = Double.parseDouble(System.getProperty("bench.jit-share", "0.05"));
        long deadline = System.nanoTime() + Duration.ofSeconds(Long.getLong("bench.max-warmup", 300)).toNanos();
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        double previous = 0;
        for (int n = 1; ; n++) {
            long compiling = compiler.getTotalCompilationTime();
            long cpu = os.getProcessCpuTime();
            double rate = window.run(name + " warm-up window " + n, length);
            double jit = (compiler.getTotalCompilationTime() - compiling) * 1e6 / Math.max(1, os.getProcessCpuTime() - cpu);
            String state = "%.0f → %.0f requests/s, JIT %.1f %% of the JVM's CPU".formatted(previous, rate, 100 * jit);
            if (n >= 3 && Math.abs(rate - previous) <= stable * Math.max(rate, previous) && jit <= jitShare) {
                System.out.printf("%s: settled after %d windows (%s)%n", name, n, state);
                return;
            }
            if (System.nanoTime() > deadline) {
                System.out.printf("%s: NOT settled after %d windows (%s); measuring anyway%n", name, n, state);
                return;
            }
            previous = rate;
        }
    }
}
