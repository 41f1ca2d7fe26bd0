package org.caseassignments.api.kinship;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * CPU time from {@code /proc} (Linux; zeros elsewhere), so one benchmark row shows where a request's
 * cost landed: this JVM as a whole, its groups of threads by name, and the PostgreSQL backends serving
 * the benchmark's database. The load generator's own threads are measured by the caller
 * ({@link java.lang.management.ThreadMXBean}), because they have ended, and left {@code /proc}, by the
 * time a run's second snapshot is taken.
 */
record Cpu(long process, long requestThreads, long jit, long postgres, long requestAllocated) {

    static final String COLUMNS = "server JVM (request threads, JIT) / load generator / PostgreSQL | KB allocated per "
            + "request by request threads";

    /** Set once by the benchmark: the database whose backends are counted. */
    static volatile String database = "";

    /** CPU used between two snapshots; {@code clients} is the load generator's threads' own. */
    record Used(long process, long requestThreads, long jit, long postgres, long clients, long requestAllocated) {
        String perRequest(long requests) {
            double n = Math.max(1, requests) * 1e6;
            return "%.2f (%.2f, %.2f) / %.2f / %.2f | %.1f".formatted((process - clients) / n, requestThreads / n, jit / n,
                    clients / n, postgres / n, requestAllocated / 1024.0 / Math.max(1, requests));
        }
    }

    static Cpu now() {
        long requestThreads = 0;
        long jit = 0;
        File[] tasks = new File("/proc/self/task").listFiles();
        for (File task : tasks == null ? new File[0] : tasks) {
            try {
                String name = Files.readString(task.toPath().resolve("comm")).strip();
                long nanos = cpuNanos(task.toPath().resolve("stat"));
                // Tomcat's platform request threads, or the carriers of its virtual threads
                if (name.startsWith("http-nio") || name.startsWith("ForkJoinPool")) {
                    requestThreads += nanos;
                } else if (name.contains("CompilerThre")) {
                    jit += nanos;
                }
            } catch (IOException | RuntimeException e) {
                // the thread ended meanwhile, or this is not Linux
            }
        }
        return new Cpu(processNanos(), requestThreads, jit, postgresBackends(), allocatedByRequestThreads());
    }

    Used since(Cpu before) {
        return since(before, 0);
    }

    Used since(Cpu before, long clients) {
        return new Used(process - before.process, requestThreads - before.requestThreads, jit - before.jit,
                postgres - before.postgres, clients, requestAllocated - before.requestAllocated);
    }

    /**
     * Bytes allocated by Tomcat's request threads so far: unlike CPU time, it does not grow when other
     * processes compete for the cores, so it shows a change of the per-request work on a loaded machine.
     */
    private static long allocatedByRequestThreads() {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("http-nio"))
                .mapToLong(thread -> Math.max(0, threads.getThreadAllocatedBytes(thread.getId())))
                .sum();
    }

    private static long processNanos() {
        try {
            return cpuNanos(Path.of("/proc/self/stat"));
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /**
     * The whole PostgreSQL server of the benchmark's database: its postmaster, the children it has now
     * and the children that have ended (the postmaster's cutime and cstime; pgbench's backends end
     * before a run's second snapshot).
     */
    private static long postgresBackends() {
        long postmaster = postmaster();
        if (postmaster < 0) {
            return 0;
        }
        long nanos = 0;
        File[] processes = new File("/proc").listFiles(f -> f.getName().chars().allMatch(Character::isDigit));
        for (File process : processes == null ? new File[0] : processes) {
            try {
                String[] fields = statFields(process.toPath().resolve("stat"));
                if (Long.parseLong(process.getName()) == postmaster) {
                    nanos += ticks(fields, 11) + ticks(fields, 12) + ticks(fields, 13) + ticks(fields, 14);
                } else if (Long.parseLong(fields[1]) == postmaster) {
                    nanos += ticks(fields, 11) + ticks(fields, 12);
                }
            } catch (IOException | RuntimeException e) {
                // the process ended meanwhile, or this is not Linux
            }
        }
        return nanos;
    }

    /** The parent of a backend serving {@link #database} (the connection pool keeps some open); -1 if none. */
    private static long postmaster() {
        File[] processes = new File("/proc").listFiles(f -> f.getName().chars().allMatch(Character::isDigit));
        for (File process : processes == null ? new File[0] : processes) {
            try {
                String command = Files.readString(process.toPath().resolve("cmdline"));
                if (command.startsWith("postgres: ") && command.contains(" " + database + " ")) {
                    return Long.parseLong(statFields(process.toPath().resolve("stat"))[1]);
                }
            } catch (IOException | RuntimeException e) {
                // the process ended meanwhile, or this is not Linux
            }
        }
        return -1;
    }

    private static String[] statFields(Path stat) throws IOException {
        String line = Files.readString(stat);
        return line.substring(line.lastIndexOf(')') + 2).split(" ");
    }

    private static long ticks(String[] fields, int index) {
        return Long.parseLong(fields[index]) * 10_000_000L;
    }

    /** utime + stime of a {@code stat} file, in nanoseconds (USER_HZ is 100 on Linux). */
    private static long cpuNanos(Path stat) throws IOException {
        String[] fields = statFields(stat);
        return ticks(fields, 11) + ticks(fields, 12);
    }
}
