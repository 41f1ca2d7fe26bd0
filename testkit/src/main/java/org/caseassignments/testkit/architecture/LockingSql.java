package org.caseassignments.testkit.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.Source;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

/**
 * The SQL that takes a lock of the lock order or writes one of the tables it covers ({@code case_assignments},
 * {@code case_assignment_history}, {@code placements}, {@code kinship_options}, {@code foster_homes}), found in a
 * compiled class's string constants ({@link ClassConstants}), and the rule that only {@code store} issues it: every
 * other module locks and writes them through {@code store}'s operations, so the order {@code LockOrder} states is
 * held by what can be called (decision 22). The testkit's own classes (fixtures that insert rows directly) are not
 * held to it. It reads constants only: SQL assembled at run time, or loaded from resources, is not seen.
 */
public final class LockingSql {

    /** The five tables, by name. */
    private static final String NAME =
            "(?:case_assignments|case_assignment_history|placements|kinship_options|foster_homes)";

    /** Where a {@code formatted} template ({@code %s}, {@code %1$s}) or a concatenation ({@code \u0001}) puts a piece. */
    private static final String PLACEHOLDER = "(?:%(?:\\d+\\$)?s\\b|\u0001)";

    /**
     * One of the tables, with or without a schema and double quotes ({@code public.placements}, {@code "placements"}),
     * or a placeholder, which may be one.
     */
    private static final String TABLE = "(?:(?:(?:\\w+|\"\\w+\")\\s*\\.\\s*)?\"?" + NAME + "\\b\"?|" + PLACEHOLDER + ")";

    /**
     * A row-lock clause ends its query: what follows is its end, a closing bracket, one of its options, a limit, or a
     * placeholder the rest of the query comes from.
     */
    private static final String CLAUSE_END =
            "(?=\\s*($|\\)|;|SKIP\\b|NOWAIT\\b|OF\\b|LIMIT\\b|OFFSET\\b|FETCH\\b|" + PLACEHOLDER + "))";

    /**
     * The namespace of the case's queue ({@code AdvisoryLocks.CASE_QUEUE}, store, 'cque'), which SQL names as the first
     * key of the two-key form in decimal ({@code AdvisoryLocks.on}): a claim that never waits is a lock of the order
     * only there. Store's {@code LockOrderTests} holds it equal to store's.
     */
    public static final int CASE_QUEUE_NAMESPACE = 0x63717565;

    /** A row lock, which is of the order only where the constant names one of the tables ({@link #NAMES_A_TABLE}). */
    private static final Pattern ROW_LOCK = Pattern.compile(String.join("|",
            "\\bFOR\\s+(NO\\s+KEY\\s+)?UPDATE" + CLAUSE_END,
            "\\bFOR\\s+(KEY\\s+)?SHARE" + CLAUSE_END), Pattern.CASE_INSENSITIVE);

    /**
     * A constant names a table a row lock can be of: one of the five by name, a placeholder where a query reads a
     * table from ({@code FROM %s}, {@code JOIN \u0001}), or a placeholder the whole query before the clause comes from.
     */
    private static final Pattern NAMES_A_TABLE = Pattern.compile(String.join("|",
            "\"?\\b" + NAME + "\\b\"?",
            "\\b(FROM|JOIN)\\s+(ONLY\\s+)?" + PLACEHOLDER,
            "^\\s*" + PLACEHOLDER), Pattern.CASE_INSENSITIVE);

    /** The SQL that takes a lock of the order or writes one of its tables (not prose that names a lock or a write). */
    private static final Pattern LOCKS_OR_WRITES = Pattern.compile(String.join("|",
            // an UPDATE has its SQL shape: a SET after the table and its alias, or the rest from a placeholder
            "\\bUPDATE\\s+(ONLY\\s+)?" + TABLE + "(?=\\s+(?:(?:AS\\s+)?\\w+\\s+)?SET\\b|\\s*" + PLACEHOLDER + ")",
            "\\bINSERT\\s+INTO\\s+" + TABLE,
            "\\bMERGE\\s+INTO\\s+(ONLY\\s+)?" + TABLE,
            "\\bCOPY\\s+" + TABLE + "(?=\\s*(?:\\([^)]*\\)\\s*)?FROM\\b)",
            "\\bDELETE\\s+FROM\\s+(ONLY\\s+)?" + TABLE,
            "\\bTRUNCATE\\s+(TABLE\\s+)?(?:(?:ONLY\\s+)?[\\w.\"]+\\s*,\\s*)*?(ONLY\\s+)?" + TABLE,
            "\\bDROP\\s+TABLE\\s+(IF\\s+EXISTS\\s+)?(?:[\\w.\"]+\\s*,\\s*)*?" + TABLE,
            "\\bALTER\\s+TABLE\\s+(IF\\s+EXISTS\\s+)?(ONLY\\s+)?" + TABLE,
            "\\bALTER\\s+TABLE\\s+(IF\\s+EXISTS\\s+)?[\\w.\"]+\\s+RENAME\\s+TO\\s+" + TABLE,
            "\\bLOCK\\s+(TABLE\\s+)?(ONLY\\s+)?" + TABLE,
            "\\bpg_advisory(_xact)?_lock",
            "\\bpg_try_advisory(_xact)?_lock(_shared)?\\s*\\(\\s*" + CASE_QUEUE_NAMESPACE + "\\b"),
            Pattern.CASE_INSENSITIVE);

    private static final String STORE = "org.caseassignments.store..";
    private static final String TESTKIT = "org.caseassignments.testkit..";

    private LockingSql() {
    }

    /**
     * No class outside {@code store} (and the testkit) has a string constant that locks or writes a table of the
     * lock order. Applied in the {@code ArchitectureTests} of every module that depends on {@code store}.
     */
    public static ArchRule onlyStoreLocksOrWritesTheOrderedTables() {
        return classes().that().resideOutsideOfPackages(STORE, TESTKIT)
                .should(issueNoSqlThatLocksOrWritesTheOrderedTables())
                .because("store's operations take the locks of the order (LockOrder) and write its tables; "
                        + "call one of them, or add one to store with its place in the order");
    }

    /** The condition of {@link #onlyStoreLocksOrWritesTheOrderedTables()}, for any selection of classes. */
    public static ArchCondition<JavaClass> issueNoSqlThatLocksOrWritesTheOrderedTables() {
        return new ArchCondition<>("issue no SQL that locks or writes case_assignments, case_assignment_history, "
                + "placements, kinship_options or foster_homes") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                List<String> sql = of(type);
                if (!sql.isEmpty()) {
                    events.add(SimpleConditionEvent.violated(type, type.getName()
                            + " locks or writes a table of the lock order: " + sql));
                }
            }
        };
    }

    /** The locking or writing SQL in the string constants of {@code type}'s class file, whitespace collapsed. */
    public static List<String> of(JavaClass type) {
        Source source = type.getSource()
                .orElseThrow(() -> new IllegalStateException("no class file known for " + type.getName()));
        try (InputStream in = source.getUri().toURL().openStream()) {
            List<String> found = new ArrayList<>();
            for (String constant : ClassConstants.strings(in)) {
                found.addAll(in(constant));
            }
            return found;
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + source.getUri(), e);
        }
    }

    /** The locking or writing SQL in one string, whitespace collapsed. */
    public static List<String> in(String sql) {
        List<String> matches = new ArrayList<>();
        collect(LOCKS_OR_WRITES.matcher(sql), matches);
        if (NAMES_A_TABLE.matcher(sql).find()) {
            collect(ROW_LOCK.matcher(sql), matches);
        }
        return matches;
    }

    private static void collect(Matcher m, List<String> into) {
        while (m.find()) {
            into.add(m.group().replaceAll("\\s+", " "));
        }
    }
}
