package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The lock order holds only if every writer is one {@link LockOrder} names: these tests read the SQL (string
 * literals and text blocks, never comments) of every module's main code and find each lock or write of a table the
 * order covers. A class that is not a named writer fails the build until it is added, with its steps, to
 * {@link LockOrder#WRITERS}. The testkit's main code is test support (fixtures inserted directly) and is not read.
 */
class LockOrderTests {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    private static final String TABLE = "(case_assignments|placements|kinship_options|foster_homes|%(\\d+\\$)?s)\\b";

    /** A row-lock clause ends its query: what follows is its end, a closing bracket, or one of its options. */
    private static final String CLAUSE_END = "(?=\\s*($|\\)|;|SKIP\\b|NOWAIT\\b|OF\\b))";

    /** The SQL that takes a lock of the order or writes one of its tables (not prose that names a lock). */
    private static final Pattern LOCKS_OR_WRITES = Pattern.compile(String.join("|",
            "\\bFOR\\s+(NO\\s+KEY\\s+)?UPDATE" + CLAUSE_END,
            "\\bFOR\\s+(KEY\\s+)?SHARE" + CLAUSE_END,
            "\\bUPDATE\\s+" + TABLE,
            "\\bINSERT\\s+INTO\\s+" + TABLE,
            "\\bDELETE\\s+FROM\\s+" + TABLE,
            "\\bALTER\\s+TABLE\\s+" + TABLE,
            "\\bLOCK\\s+(TABLE\\s+)?" + TABLE,
            "\\bpg_advisory(_xact)?_lock"), Pattern.CASE_INSENSITIVE);

    @Test
    void shouldFindLocksAndWritesOfTheOrderedTablesOnlyInTheWritersTheLockOrderNames() throws IOException {
        Map<String, List<String>> found = lockingSqlOfMainCode();
        Set<String> named = LockOrder.WRITERS.stream().map(LockOrder.Writer::className).collect(Collectors.toSet());

        assertThat(found.keySet())
                .as("classes whose SQL locks or writes a table of the lock order; add a new writer to LockOrder.WRITERS, "
                        + "with its place in the order, and to docs/architecture.md, Locks — found: " + found)
                .isSubsetOf(named);
    }

    @Test
    void shouldNameOnlyWritersThatStillLockOrWrite() throws IOException {
        Map<String, List<String>> found = lockingSqlOfMainCode();

        assertThat(LockOrder.WRITERS).extracting(LockOrder.Writer::className)
                .as("LockOrder.WRITERS names a class with no locking SQL (renamed or gone?)")
                .allSatisfy(name -> assertThat(found).containsKey(name));
    }

    @Test
    void shouldFlagAWriterOutsideTheListAndIgnoreComments() {
        String rogue = """
                package org.caseassignments.api.rogue;

                /** Mentions FOR UPDATE and UPDATE placements in a comment only. */
                class RogueWriter {
                    // INSERT INTO case_assignments in a line comment
                    private static final char QUOTE = '"';
                    private static final String TOUCH = \"""
                            UPDATE placements SET status = 'ENDED' WHERE id = ?
                            \""";
                    private static final String HOLD = "SELECT 1 FROM kinship_options WHERE id = ? FOR NO KEY UPDATE";
                }
                """;

        assertThat(lockingSql(rogue)).containsExactly("UPDATE placements", "FOR NO KEY UPDATE");
        assertThat(lockingSql("/** FOR SHARE */ class Quiet { String s = \"SELECT 1 FROM placements\"; }")).isEmpty();
        assertThat(lockingSql("class Help { String s = \"the case rows held FOR SHARE first\"; }")).isEmpty();
    }

    private static Map<String, List<String>> lockingSqlOfMainCode() throws IOException {
        Map<String, List<String>> found = new TreeMap<>();
        try (Stream<Path> modules = Files.list(ROOT)) {
            for (Path sources : modules.filter(m -> !m.getFileName().toString().equals("testkit"))
                    .map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).toList()) {
                try (Stream<Path> files = Files.walk(sources)) {
                    for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                        List<String> sql = lockingSql(Files.readString(file));
                        if (!sql.isEmpty()) {
                            String relative = sources.relativize(file).toString();
                            found.put(relative.substring(0, relative.length() - ".java".length())
                                    .replace(file.getFileSystem().getSeparator(), "."), sql);
                        }
                    }
                }
            }
        }
        assertThat(found).as("no SQL found at all under " + ROOT + ": is the test running from its module?")
                .isNotEmpty();
        return found;
    }

    /** The locking or writing SQL in a source's string literals and text blocks, whitespace collapsed. */
    static List<String> lockingSql(String source) {
        List<String> matches = new ArrayList<>();
        for (String literal : literals(source)) {
            Matcher m = LOCKS_OR_WRITES.matcher(literal);
            while (m.find()) {
                matches.add(m.group().replaceAll("\\s+", " "));
            }
        }
        return matches;
    }

    /** The contents of a source's string literals and text blocks, skipping comments and char literals. */
    static List<String> literals(String source) {
        List<String> literals = new ArrayList<>();
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (source.startsWith("//", i)) {
                i = endOf(source, "\n", i + 2);
            } else if (source.startsWith("/*", i)) {
                i = endOf(source, "*/", i + 2);
            } else if (source.startsWith("\"\"\"", i)) {
                int end = closing(source, "\"\"\"", i + 3);
                literals.add(source.substring(i + 3, Math.min(end, n)));
                i = end + 3;
            } else if (c == '"') {
                int end = closing(source, "\"", i + 1);
                literals.add(source.substring(i + 1, Math.min(end, n)));
                i = end + 1;
            } else if (c == '\'') {
                i = closing(source, "'", i + 1) + 1;
            } else {
                i++;
            }
        }
        return literals;
    }

    private static int endOf(String source, String end, int from) {
        int at = source.indexOf(end, from);
        return at < 0 ? source.length() : at + end.length();
    }

    /** Where the literal opened before {@code from} closes, past escaped characters. */
    private static int closing(String source, String quote, int from) {
        int i = from;
        while (i < source.length() && !source.startsWith(quote, i)) {
            i += source.charAt(i) == '\\' ? 2 : 1;
        }
        return i;
    }
}
