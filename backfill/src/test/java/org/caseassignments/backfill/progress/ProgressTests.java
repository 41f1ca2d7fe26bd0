package org.caseassignments.backfill.progress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.OptionalDouble;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class ProgressTests {

    private final AtomicLong nanos = new AtomicLong();
    private final StringWriter out = new StringWriter();

    @Test
    void shouldPrintAPlainLineWithRateAndEtaOncePerInterval() {
        Progress progress = new Progress(new PrintWriter(out), Progress.Mode.LINES, Duration.ofSeconds(10), "rows", nanos::get);

        nanos.set(Duration.ofSeconds(5).toNanos());
        progress.update(500, OptionalDouble.of(0.25), "line 501");
        nanos.set(Duration.ofSeconds(10).toNanos());
        progress.update(1_000, OptionalDouble.of(0.5), "line 1001");

        assertThat(out.toString()).isEqualTo("progress:  50.0%  1,000 rows  100 rows/s  ETA 0:00:10  line 1001" + System.lineSeparator());
    }

    @Test
    void shouldRedrawOneBarLineOnATerminalAndEndItWhenFinished() {
        Progress progress = new Progress(new PrintWriter(out), Progress.Mode.BAR, Duration.ofSeconds(10), "rows", nanos::get);

        nanos.set(Duration.ofSeconds(1).toNanos());
        progress.update(100, OptionalDouble.of(0.5), "");
        nanos.set(Duration.ofSeconds(2).toNanos());
        progress.finish(200, OptionalDouble.of(1.0));

        assertThat(out.toString()).startsWith("\r[###############---------------]  50.0%  100 rows  100 rows/s  ETA 0:00:01")
                .contains("\r[##############################] 100.0%  200 rows").endsWith(System.lineSeparator());
    }

    @Test
    void shouldLeaveOutTheEtaWhenTheTotalIsUnknown() {
        Progress progress = new Progress(new PrintWriter(out), Progress.Mode.LINES, Duration.ofSeconds(1), "records", nanos::get);

        nanos.set(Duration.ofSeconds(2).toNanos());
        progress.update(4_000, OptionalDouble.empty(), "");

        assertThat(out.toString()).isEqualTo("progress: 4,000 records  2,000 records/s" + System.lineSeparator());
    }

    @Test
    void shouldPrintNothingWhenAskedForNone() {
        Progress progress = new Progress(new PrintWriter(out), Progress.Mode.NONE, Duration.ofSeconds(1), "rows", nanos::get);

        nanos.set(Duration.ofSeconds(5).toNanos());
        progress.update(10, OptionalDouble.of(0.1), "");
        progress.finish(10, OptionalDouble.of(0.1));

        assertThat(out.toString()).isEmpty();
    }
}
