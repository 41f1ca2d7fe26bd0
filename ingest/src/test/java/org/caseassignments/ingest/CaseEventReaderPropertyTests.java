package org.caseassignments.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

import org.apache.avro.specific.SpecificRecord;
import org.caseassignments.schemas.events.CaseAssignmentChanged;
import org.caseassignments.schemas.events.CaseCreated;
import org.caseassignments.schemas.serde.AvroEventCodec;
import org.caseassignments.store.StorableText;
import org.junit.jupiter.api.Test;

/**
 * Property: whatever bytes arrive, the reader either accepts an event that keeps every contract (its key,
 * storable subjects) or rejects it with a reason — it never throws and never runs out of memory, either of
 * which would kill a stream thread and wedge its partitions. The inputs are random bytes behind each
 * framing, and valid encodings mutated: bit flips, truncations, extensions, and length prefixes overwritten
 * with huge or negative lengths. Seeded: a failure prints the seed; {@code -Dreader.seed=N} replays it.
 */
class CaseEventReaderPropertyTests {

    private static final int RECORDS = 50_000;

    private enum Shape { RANDOM, RANDOM_BEHIND_FRAMING, VALID, BIT_FLIPS, TRUNCATED, EXTENDED, LENGTH_PREFIX, SPLICED }

    private final AvroEventCodec codec = AvroEventCodec.singleObject();
    private final CaseEventReader reader = new CaseEventReader(codec);

    @Test
    void shouldDecodeOrRejectWithAReasonWhateverTheBytes() {
        long seed = Long.getLong("reader.seed", new Random().nextLong());
        Random random = new Random(seed);
        byte[] header = Arrays.copyOf(codec.encode("t", event(random, UUID.randomUUID()), false), 10);
        Map<Shape, int[]> outcomes = new EnumMap<>(Shape.class);
        for (int i = 0; i < RECORDS; i++) {
            Shape shape = Shape.values()[random.nextInt(Shape.values().length)];
            UUID caseId = UUID.randomUUID();
            byte[] value = value(shape, random, header, caseId);
            byte[] key = key(random, caseId);
            Ingested ingested;
            try {
                ingested = reader.read(key, value);
            } catch (Throwable e) {
                throw new AssertionError("seed " + seed + ", record " + i + " (" + shape + "): " + e + " for value "
                        + HexFormat.of().formatHex(value) + " keyed " + (key == null ? null : new String(key, StandardCharsets.UTF_8)), e);
            }
            int[] counts = outcomes.computeIfAbsent(shape, s -> new int[2]);
            if (ingested instanceof Ingested.Accepted accepted) {
                counts[0]++;
                assertThat(key).as("seed %d, record %d: accepted without its case id as key", seed, i)
                        .isEqualTo(accepted.update().caseId().toString().getBytes(StandardCharsets.UTF_8));
                assertThat(StorableText.subjectProblem("w", accepted.update().assignedWorkerSub())).as("seed %d", seed).isNull();
                assertThat(StorableText.subjectProblem("s", accepted.update().supervisorSub())).as("seed %d", seed).isNull();
            } else if (ingested instanceof Ingested.Rejected rejected) {
                counts[1]++;
                assertThat(rejected.rejection().code()).as("seed %d, record %d", seed, i).isNotBlank();
                assertThat(rejected.rejection().message()).as("seed %d, record %d", seed, i).isNotBlank()
                        .hasSizeLessThanOrEqualTo(Rejection.MAX_MESSAGE_LENGTH);
            } else {
                fail("seed " + seed + ", record " + i + ": neither accepted nor rejected: " + ingested);
            }
        }
        // The generator must reach both outcomes, or the property proves little.
        assertThat(outcomes.get(Shape.VALID)[0]).as("seed %d: valid records accepted", seed).isPositive();
        assertThat(outcomes.get(Shape.BIT_FLIPS)[1]).as("seed %d: mutated records rejected", seed).isPositive();
    }

    private byte[] value(Shape shape, Random random, byte[] header, UUID caseId) {
        byte[] valid = codec.encode("t", event(random, caseId), false);
        return switch (shape) {
            case RANDOM -> bytes(random, random.nextInt(64));
            case RANDOM_BEHIND_FRAMING -> concat(random.nextBoolean() ? header : new byte[] {0, 0, 0, 0, 1},
                    bytes(random, random.nextInt(128)));
            case VALID -> valid;
            case BIT_FLIPS -> {
                for (int flips = 1 + random.nextInt(8); flips > 0; flips--) {
                    int bit = random.nextInt(valid.length * 8);
                    valid[bit / 8] ^= (byte) (1 << bit % 8);
                }
                yield valid;
            }
            case TRUNCATED -> Arrays.copyOf(valid, random.nextInt(valid.length));
            case EXTENDED -> concat(valid, bytes(random, 1 + random.nextInt(16)));
            case LENGTH_PREFIX -> {
                // Overwrite a body position with a varint length (zig-zag) that claims far more bytes than there are.
                long[] lengths = {Integer.MAX_VALUE, Integer.MAX_VALUE - 8, 1L << 40, Long.MAX_VALUE / 2, -1, -(1L << 31),
                        1 << 20, (1 << 20) + 1, 1 << 16};
                byte[] prefix = zigZagVarint(lengths[random.nextInt(lengths.length)]);
                int at = 10 + random.nextInt(valid.length - 10);
                byte[] mutated = Arrays.copyOf(valid, Math.max(valid.length, at + prefix.length));
                System.arraycopy(prefix, 0, mutated, at, prefix.length);
                yield mutated;
            }
            case SPLICED -> {
                byte[] other = codec.encode("t", event(random, UUID.randomUUID()), false);
                int cut = 10 + random.nextInt(valid.length - 10);
                yield concat(Arrays.copyOf(valid, cut), Arrays.copyOfRange(other, 10 + random.nextInt(other.length - 10),
                        other.length));
            }
        };
    }

    /** An event with subjects that are sometimes empty, long, or hold characters PostgreSQL cannot store. */
    private static SpecificRecord event(Random random, UUID caseId) {
        String worker = subject(random);
        String supervisor = subject(random);
        if (random.nextBoolean()) {
            return CaseCreated.newBuilder().setEventId(UUID.randomUUID().toString()).setCaseId(caseId.toString())
                    .setAssignedWorkerSub(worker).setSupervisorSub(supervisor).setOccurredAt(java.time.Instant.EPOCH).build();
        }
        return CaseAssignmentChanged.newBuilder().setEventId(UUID.randomUUID().toString()).setCaseId(caseId.toString())
                .setAssignedWorkerSub(worker).setSupervisorSub(supervisor)
                .setAssignmentRevision(random.nextInt(5) == 0 ? -random.nextInt(3) : random.nextLong(1L << 40))
                .setOccurredAt(java.time.Instant.ofEpochMilli(random.nextLong(1L << 42))).build();
    }

    private static String subject(Random random) {
        return switch (random.nextInt(8)) {
            case 0 -> null;
            case 1 -> "";
            case 2 -> "w\0" + random.nextInt(100);
            case 3 -> "x".repeat(250 + random.nextInt(10));
            case 4 -> "ü\uD83D\uDE00-" + random.nextInt(100);
            default -> "auth0|" + Long.toHexString(random.nextLong());
        };
    }

    private static byte[] key(Random random, UUID caseId) {
        return switch (random.nextInt(10)) {
            case 0 -> null;
            case 1 -> "not-a-uuid".getBytes(StandardCharsets.UTF_8);
            case 2 -> UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8);
            case 3 -> bytes(random, random.nextInt(40));
            default -> caseId.toString().getBytes(StandardCharsets.UTF_8);
        };
    }

    private static byte[] zigZagVarint(long value) {
        long v = value << 1 ^ value >> 63;
        byte[] out = new byte[10];
        int n = 0;
        while ((v & ~0x7FL) != 0) {
            out[n++] = (byte) (v & 0x7F | 0x80);
            v >>>= 7;
        }
        out[n++] = (byte) v;
        return Arrays.copyOf(out, n);
    }

    private static byte[] bytes(Random random, int size) {
        byte[] bytes = new byte[size];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
