package org.caseassignments.store;

import java.lang.management.ManagementFactory;

import com.sun.management.HotSpotDiagnosticMXBean;

/**
 * What objects take on this JVM's heap: object and array headers, references and alignment as the running HotSpot JVM
 * lays them out (compressed references and class pointers or not, compact strings or not, its object alignment), read
 * once from its options; on a JVM that does not say, the largest of the usual layouts (16-byte object headers, 8-byte
 * references, 8-byte alignment). What the projector's byte budget counts its pending events in (decision 47);
 * {@code HeapBytesTests} and the projector's {@code PendingBytesCountTests} measure it against the heap itself.
 */
public final class HeapBytes {

    /** The running JVM's layout. */
    static final Layout LAYOUT = Layout.ofThisJvm();

    /** A {@link String} besides its bytes: the reference to them, its hash, its coder and whether its hash is 0. */
    private static final long STRING = object(1, 4 + 1 + 1);

    private HeapBytes() {
    }

    /**
     * How the JVM lays objects out.
     *
     * @param objectHeader  bytes before an object's first field
     * @param arrayHeader   bytes before an array's first element
     * @param reference     bytes of a reference
     * @param alignment     what each object's size is rounded up to
     * @param compactString whether a string of Latin-1 characters takes a byte a character (else two)
     */
    record Layout(int objectHeader, int arrayHeader, int reference, int alignment, boolean compactString) {

        static Layout ofThisJvm() {
            try {
                HotSpotDiagnosticMXBean hotspot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
                boolean compressedReferences = Boolean.parseBoolean(hotspot.getVMOption("UseCompressedOops").getValue());
                boolean compressedClasses = Boolean.parseBoolean(
                        hotspot.getVMOption("UseCompressedClassPointers").getValue());
                int alignment = Integer.parseInt(hotspot.getVMOption("ObjectAlignmentInBytes").getValue());
                boolean compactStrings = Boolean.parseBoolean(hotspot.getVMOption("CompactStrings").getValue());
                int objectHeader = compressedClasses ? 12 : 16;
                int arrayHeader = (objectHeader + 4 + 7) / 8 * 8; // the length, then the elements from 8 bytes on
                return new Layout(objectHeader, arrayHeader, compressedReferences ? 4 : 8, alignment, compactStrings);
            } catch (RuntimeException | LinkageError notHotSpot) {
                return new Layout(16, 24, 8, 8, false);
            }
        }
    }

    /** An object with {@code references} reference fields and {@code primitiveBytes} of other fields. */
    public static long object(int references, int primitiveBytes) {
        return align(LAYOUT.objectHeader() + (long) references * LAYOUT.reference() + primitiveBytes);
    }

    /** An array of {@code length} primitives of {@code elementBytes} each. */
    public static long array(long length, int elementBytes) {
        return align(LAYOUT.arrayHeader() + length * elementBytes);
    }

    /** An array of {@code length} references. */
    public static long references(long length) {
        return array(length, LAYOUT.reference());
    }

    /** A byte array; nothing for null. */
    public static long of(byte[] bytes) {
        return bytes == null ? 0 : array(bytes.length, 1);
    }

    /** A string with its bytes: one a character while all are Latin-1 and strings are compact, else two; 0 for null. */
    public static long of(String text) {
        if (text == null) {
            return 0;
        }
        int perCharacter = LAYOUT.compactString() ? 1 : 2;
        for (int i = 0; i < text.length() && perCharacter == 1; i++) {
            if (text.charAt(i) > 0xFF) {
                perCharacter = 2;
            }
        }
        return STRING + array(text.length(), perCharacter);
    }

    private static long align(long bytes) {
        long alignment = LAYOUT.alignment();
        return (bytes + alignment - 1) / alignment * alignment;
    }
}
