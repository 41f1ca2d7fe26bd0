package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.GraphLayout;
import org.openjdk.jol.vm.VM;

/**
 * {@link HeapBytes} gives what the JVM the test runs on takes (JOL's sizes of the same objects): in the build's own
 * layout, and under another one given to the tests' JVM (e.g. {@code -XX:-UseCompressedClassPointers}).
 */
class HeapBytesTests {

    /** Four references: as a header's object, with the layout's size of a reference. */
    @SuppressWarnings("unused")
    private static final class FourReferences {
        Object a;
        Object b;
        Object c;
        Object d;
    }

    /** Six references and a long: as an update's object. */
    @SuppressWarnings("unused")
    private static final class SixReferencesAndALong {
        Object a;
        Object b;
        Object c;
        Object d;
        Object e;
        Object f;
        long g;
    }

    /** No field but 12 bytes of primitives: as an instant's object. */
    @SuppressWarnings("unused")
    private static final class ALongAndAnInt {
        long a;
        int b;
    }

    @Test
    void shouldSizeArraysAsTheJvmLaysThemOut() {
        for (int length = 0; length <= 100; length++) {
            assertThat(HeapBytes.of(new byte[length])).as("byte[%d]", length)
                    .isEqualTo(VM.current().sizeOf(new byte[length]));
            assertThat(HeapBytes.array(length, Long.BYTES)).as("long[%d]", length)
                    .isEqualTo(VM.current().sizeOf(new long[length]));
            assertThat(HeapBytes.references(length)).as("Object[%d]", length)
                    .isEqualTo(VM.current().sizeOf(new Object[length]));
        }
    }

    @Test
    void shouldSizeObjectsByTheirReferencesAndPrimitives() {
        assertThat(HeapBytes.object(4, 0)).isEqualTo(VM.current().sizeOf(new FourReferences()));
        assertThat(HeapBytes.object(6, 8)).isEqualTo(VM.current().sizeOf(new SixReferencesAndALong()));
        assertThat(HeapBytes.object(0, 12)).isEqualTo(VM.current().sizeOf(new ALongAndAnInt()));
    }

    @Test
    void shouldSizeAStringWithItsBytesInLatinOneOrNot() {
        for (String text : new String[] {"", "w", "worker-42", "travailleur-é", "работник-7", "x".repeat(255)}) {
            String fresh = new String(text.toCharArray()); // its own bytes, not a shared literal's
            assertThat(HeapBytes.of(fresh)).as("\"%s\"", text)
                    .isEqualTo(GraphLayout.parseInstance(fresh).totalSize());
        }
    }
}
