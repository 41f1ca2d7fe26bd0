package org.caseassignments.backfill.progress;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.function.LongSupplier;

/**
 * Reports how far a job is. In {@link Mode#BAR} mode a single line is redrawn with a carriage return
 * (at most five times a second); in {@link Mode#LINES} mode a line is printed every interval.
 * {@link Mode#AUTO} picks the bar when the JVM has a console, lines otherwise.
 */
public final class Progress {

    /** How to report. */
    public enum Mode { AUTO, BAR, LINES, NONE }

    private static final long BAR_REDRAW_NANOS = Duration.ofMillis(200).toNanos();
    private static final int BAR_WIDTH = 30;

    private final PrintWriter out;
    private final Mode mode;
    private final long intervalNanos;
    private final String unit;
    private final LongSupplier clock;
    private final long startNanos;
    private long lastReportNanos;
    private boolean barDrawn;

    public Progress(PrintWriter out, Mode mode, Duration interval, String unit) {
        this(out, mode, interval, unit, System::nanoTime);
    }

    Progress(PrintWriter out, Mode mode, Duration interval, String unit, LongSupplier clock) {
        this.out = out;
        this.mode = mode == Mode.AUTO ? (System.console() != null ? Mode.BAR : Mode.LINES) : mode;
        this.intervalNanos = interval.toNanos();
        this.unit = unit;
        this.clock = clock;
        this.startNanos = clock.getAsLong();
        this.lastReportNanos = startNanos;
    }

    /**
     * @param done     units done so far
     * @param fraction how much of the whole is done, when known
     * @param detail   appended to a plain line (e.g. offsets per partition); may be empty
     */
    public void update(long done, OptionalDouble fraction, String detail) {
        long now = clock.getAsLong();
        if (mode == Mode.BAR && now - lastReportNanos >= BAR_REDRAW_NANOS) {
            out.print("\r" + bar(fraction) + status(done, fraction, now) + "   ");
            out.flush();
            barDrawn = true;
            lastReportNanos = now;
        } else if (mode == Mode.LINES && now - lastReportNanos >= intervalNanos) {
            out.println("progress: " + status(done, fraction, now) + (detail.isEmpty() ? "" : "  " + detail));
            out.flush();
            lastReportNanos = now;
        }
    }

    /** Ends the bar's line, so that what follows starts on a line of its own. */
    public void finish(long done, OptionalDouble fraction) {
        if (mode == Mode.BAR) {
            out.println("\r" + bar(fraction) + status(done, fraction, clock.getAsLong()) + "   ");
            out.flush();
        } else if (barDrawn) {
            out.println();
        }
    }

    /** Seconds since this progress started. */
    public double elapsedSeconds() {
        return (clock.getAsLong() - startNanos) / 1e9;
    }

    private String status(long done, OptionalDouble fraction, long now) {
        double seconds = Math.max((now - startNanos) / 1e9, 1e-9);
        double rate = done / seconds;
        StringBuilder text = new StringBuilder();
        fraction.ifPresent(f -> text.append(String.format(Locale.ROOT, "%5.1f%%  ", f * 100)));
        text.append(String.format(Locale.ROOT, "%,d %s  %,.0f %s/s", done, unit, rate, unit));
        if (fraction.isPresent() && fraction.getAsDouble() > 0) {
            double f = fraction.getAsDouble();
            text.append("  ETA ").append(duration(seconds * (1 - f) / f));
        }
        return text.toString();
    }

    private static String bar(OptionalDouble fraction) {
        if (fraction.isEmpty()) {
            return "";
        }
        int filled = (int) Math.round(Math.min(1.0, fraction.getAsDouble()) * BAR_WIDTH);
        return "[" + "#".repeat(filled) + "-".repeat(BAR_WIDTH - filled) + "] ";
    }

    static String duration(double seconds) {
        long s = Math.round(seconds);
        return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60);
    }
}
