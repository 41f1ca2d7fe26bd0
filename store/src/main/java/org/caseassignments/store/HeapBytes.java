package org.caseassignments.store;

/**
 * What objects take on the heap of a 64-bit JVM with compressed references (any heap under 32 GB): a 12-byte object
 * header, a 16-byte array header, 4-byte references, each object aligned to 8 bytes. What the projector's byte budget
 * counts its pending events in (decision 47); a test measures the count against the heap itself.
 */
public final class HeapBytes {

    /** A {@link String} besides its bytes: its hash, its coder and the reference to its bytes. */
    private static final long STRING = object(10);

    private HeapBytes() {
    }

    /** An object whose fields take {@code fieldBytes} (references 4 bytes each). */
    public static long object(int fieldBytes) {
        return align(12L + fieldBytes);
    }

    /** An array of {@code length} elements of {@code elementBytes} each (references 4). */
    public static long array(long length, int elementBytes) {
        return align(16 + length * elementBytes);
    }

    /** A byte array; nothing for null. */
    public static long of(byte[] bytes) {
        return bytes == null ? 0 : array(bytes.length, 1);
    }

    /** A string with its bytes: one a character in Latin-1, two for any other; nothing for null. */
    public static long of(String text) {
        if (text == null) {
            return 0;
        }
        int perCharacter = 1;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) > 0xFF) {
                perCharacter = 2;
                break;
            }
        }
        return STRING + array(text.length(), perCharacter);
    }

    private static long align(long bytes) {
        return (bytes + 7) & ~7L;
    }
}
