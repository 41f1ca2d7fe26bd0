package org.caseassignments.testkit.architecture;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * The string constants of a class file, read from its constant pool (JVMS 4.4): every {@code CONSTANT_String}, which
 * is what a string literal, a text block, a compile-time constant ({@code static final}, inlined where it is used),
 * a {@code formatted} template and the recipe of a concatenation ({@code \u0001} where a value goes) compile to.
 * Annotation values, names and descriptors are {@code CONSTANT_Utf8} that no {@code CONSTANT_String} names, and are
 * not returned. ArchUnit does not import the constant pool, and no class-file library is a managed dependency here.
 */
public final class ClassConstants {

    private static final int MAGIC = 0xCAFEBABE;

    private ClassConstants() {
    }

    /** The string constants of the class file {@code classFile}, in the order of its constant pool. */
    public static List<String> strings(byte[] classFile) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile))) {
            return strings(in);
        } catch (IOException e) {
            throw new IllegalArgumentException("not a class file: " + e.getMessage(), e);
        }
    }

    /** The string constants of the class file {@code classFile} reads. */
    public static List<String> strings(InputStream classFile) throws IOException {
        return strings(classFile.readAllBytes());
    }

    private static List<String> strings(DataInputStream in) throws IOException {
        if (in.readInt() != MAGIC) {
            throw new IOException("no 0xCAFEBABE at its start");
        }
        in.readUnsignedShort(); // minor version
        in.readUnsignedShort(); // major version
        int count = in.readUnsignedShort();
        String[] utf8 = new String[count];
        List<Integer> stringIndexes = new ArrayList<>();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> utf8[i] = in.readUTF(); // Utf8: a u2 length and modified UTF-8, as readUTF reads it
                case 8 -> stringIndexes.add(in.readUnsignedShort()); // String: the index of its Utf8
                case 7, 16, 19, 20 -> in.skipNBytes(2); // Class, MethodType, Module, Package
                case 15 -> in.skipNBytes(3); // MethodHandle
                case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipNBytes(4); // Integer, Float, refs, NameAndType, (Invoke)Dynamic
                case 5, 6 -> {
                    in.skipNBytes(8); // Long, Double: two entries of the pool
                    i++;
                }
                default -> throw new IOException("unknown constant pool tag " + tag + " at entry " + i);
            }
        }
        List<String> strings = new ArrayList<>(stringIndexes.size());
        for (int index : stringIndexes) {
            strings.add(utf8[index]);
        }
        return strings;
    }
}
