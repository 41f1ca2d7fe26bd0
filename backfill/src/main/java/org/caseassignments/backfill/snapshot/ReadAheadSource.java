package org.caseassignments.backfill.snapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads and parses a snapshot on its own thread, up to a bounded number of records ahead, so the next
 * batch is ready while the current one is written. Hands the records out in the source's order; its
 * position ({@link #recordsRead()}) counts the records handed out, so a checkpoint taken from it never
 * counts a record that was read ahead but not yet applied. A failure of the source surfaces from
 * {@link #next()} at the position where it happened. Closing it stops the reading thread; the caller
 * still closes the source.
 */
public final class ReadAheadSource implements SnapshotSource {

    private static final int CHUNK = 1_024;

    /** Records read in one go; {@code last} ends the stream, with {@code failure} if the source failed. */
    private record Chunk(List<SnapshotRecord> records, OptionalDouble fractionDone, boolean last,
                         SnapshotSourceException failure) {
    }

    private final SnapshotSource source;
    private final SourceIdentity identity;
    private final BlockingQueue<Chunk> chunks;
    private final Thread reader;
    private long recordsRead;
    private OptionalDouble fractionDone;
    private Chunk current;
    private int position;

    /** Starts reading {@code source} from where it stands, at most about {@code records} records ahead. */
    public ReadAheadSource(SnapshotSource source, int records) {
        this.source = source;
        this.identity = source.identity();
        this.recordsRead = source.recordsRead();
        this.fractionDone = source.fractionDone();
        this.chunks = new ArrayBlockingQueue<>(Math.max(2, records / CHUNK));
        this.reader = new Thread(this::readAll, "snapshot-read-ahead");
        reader.setDaemon(true);
        reader.start();
    }

    private void readAll() {
        try {
            boolean last = false;
            while (!last) {
                List<SnapshotRecord> records = new ArrayList<>(CHUNK);
                SnapshotSourceException failure = null;
                try {
                    while (records.size() < CHUNK && !last) {
                        SnapshotRecord record = source.next();
                        if (record == null) {
                            last = true;
                        } else {
                            records.add(record);
                        }
                    }
                } catch (SnapshotSourceException e) {
                    failure = e;
                } catch (RuntimeException e) {
                    failure = new SnapshotSourceException(identity.description() + " could not be read: " + e, e);
                }
                last |= failure != null;
                chunks.put(new Chunk(records, source.fractionDone(), last, failure));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public SnapshotRecord next() {
        while (current == null || position == current.records().size()) {
            if (current != null && current.last()) {
                if (current.failure() != null) {
                    throw current.failure();
                }
                return null;
            }
            current = take();
            position = 0;
            fractionDone = current.fractionDone();
        }
        recordsRead++;
        return current.records().get(position++);
    }

    private Chunk take() {
        try {
            return chunks.take();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SnapshotSourceException("interrupted while reading " + identity.description(), e);
        }
    }

    @Override
    public long recordsRead() {
        return recordsRead;
    }

    /** As of the end of the chunk being handed out: at most a chunk ahead of {@link #recordsRead()}. */
    @Override
    public OptionalDouble fractionDone() {
        return fractionDone;
    }

    @Override
    public SourceIdentity identity() {
        return identity;
    }

    /** Stops the reading thread and waits for it, so the caller may then close the source safely. */
    @Override
    public void close() {
        reader.interrupt();
        boolean interrupted = false;
        while (reader.isAlive()) {
            try {
                reader.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
