package org.caseassignments.backfill.snapshot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class ReadAheadSourceTests {

    /** A source of {@code size} rows that fails instead of returning record {@code failAt} (0-based), if set. */
    private static final class ListSource implements SnapshotSource {
        private final int size;
        private final int failAt;
        private final CountDownLatch blockedAt;
        private long read;

        ListSource(int size, int failAt, CountDownLatch blockedAt) {
            this.size = size;
            this.failAt = failAt;
            this.blockedAt = blockedAt;
        }

        @Override
        public SnapshotRecord next() {
            if (read == failAt) {
                throw new SnapshotSourceException("broken quoting at line " + (read + 2));
            }
            if (read == size) {
                return null;
            }
            if (blockedAt != null && read == size - 1) {
                blockedAt.countDown();
            }
            read++;
            return read % 10 == 0
                    ? new BadRow(read + 1, BadRow.INVALID_CASE_ID, "not a UUID", "x")
                    : new SnapshotRow(read + 1, new UUID(0, read), "w", "s", read, null);
        }

        @Override
        public long recordsRead() {
            return read;
        }

        @Override
        public OptionalDouble fractionDone() {
            return OptionalDouble.of((double) read / size);
        }

        @Override
        public SourceIdentity identity() {
            return new SourceIdentity("list of " + size, size, -1);
        }

        @Override
        public void close() {
        }
    }

    private static List<SnapshotRecord> drain(SnapshotSource source) {
        List<SnapshotRecord> records = new ArrayList<>();
        for (SnapshotRecord record = source.next(); record != null; record = source.next()) {
            records.add(record);
            assertThat(source.recordsRead()).isEqualTo(records.size() + 7);
        }
        return records;
    }

    @Test
    void handsOutEveryRecordInTheSourcesOrderAndCountsOnlyWhatItHandedOut() {
        ListSource direct = new ListSource(5_000, -1, null);
        direct.skip(7);
        List<SnapshotRecord> expected = drain(direct);

        ListSource behind = new ListSource(5_000, -1, null);
        behind.skip(7);
        try (ReadAheadSource reading = new ReadAheadSource(behind, 2_048)) {
            assertThat(drain(reading)).isEqualTo(expected);
            assertThat(reading.next()).isNull();
            assertThat(reading.recordsRead()).isEqualTo(5_000);
            assertThat(reading.fractionDone()).hasValue(1.0);
        }
    }

    @Test
    void aFailingSourceFailsAtThePositionWhereItFailed() {
        ListSource failing = new ListSource(5_000, 3_000, null);
        failing.skip(7);
        try (ReadAheadSource reading = new ReadAheadSource(failing, 1_024)) {
            for (int i = 0; i < 3_000 - 7; i++) {
                assertThat(reading.next()).isNotNull();
            }
            assertThat(reading.recordsRead()).isEqualTo(3_000);
            assertThatThrownBy(reading::next).isInstanceOf(SnapshotSourceException.class).hasMessageContaining("line 3002");
            assertThatThrownBy(reading::next).isInstanceOf(SnapshotSourceException.class);
        }
    }

    @Test
    void closingStopsAReaderThatIsBlockedOnAFullQueue() throws InterruptedException {
        CountDownLatch lastRecordRead = new CountDownLatch(1);
        ListSource large = new ListSource(100_000, -1, lastRecordRead);
        ReadAheadSource reading = new ReadAheadSource(large, 2_048);
        assertThat(reading.next()).isNotNull();
        reading.close();
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().equals("snapshot-read-ahead") && t.isAlive());
        assertThat(lastRecordRead.await(0, TimeUnit.SECONDS)).as("the reader stopped long before the end").isFalse();
        assertThat(large.recordsRead()).isLessThan(100_000);
    }
}
