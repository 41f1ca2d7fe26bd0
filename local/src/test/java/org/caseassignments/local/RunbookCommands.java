package org.caseassignments.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The commands a runbook page gives an operator, as bash runs them: every {@code ```bash} block and every
 * {@code ```sql} block (through {@code psql "$PGURL"}, which the page's own {@code export PGURL=…} line derives from
 * {@code DATABASE_URL}). A block right under an HTML comment {@code <!-- runs: why not -->} is left out, with that
 * reason. A command written inline in the prose would escape them, so {@link #inline} finds every one: a code span
 * that starts with a command this project's runbooks run and goes on with its arguments.
 */
final class RunbookCommands {

    private static final Pattern LEFT_OUT = Pattern.compile("\\s*<!--\\s*runs:\\s*(.+?)\\s*-->\\s*");
    /** A code span: its backticks are paired within a paragraph, and it may go on over a line break. */
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");
    /**
     * The commands a runbook gives an operator to run here, and SQL statements: followed by their arguments, a
     * code span of one of them is a command to copy, which belongs in a block, in any case and after {@code NAME=value}
     * assignments. A name alone (`psql`) is prose.
     */
    private static final Pattern COMMAND = Pattern.compile("([A-Z_][A-Z0-9_]*=\\S*\\s+)*"
            + "(((bash\\s+)?\\./run|(bash\\s+)?(\\./)?backfill-cli|backfill\\s+[a-z-]+(?=\\s+--\\S)|curl|psql|promtool"
            + "|java -jar|kafka-[a-z-]+\\.sh|bash\\s+\\./\\S+"
            + "|SELECT|UPDATE|DELETE|INSERT|DROP|SHOW|ALTER|CREATE|TRUNCATE|WITH|SET|VACUUM|BEGIN|COPY|GRANT|REINDEX)"
            + "(\\s+\\S|;).*|bash\\s+\\./\\S+)", Pattern.DOTALL | Pattern.CASE_INSENSITIVE);

    /** One command: where it is on the page, the bash script, and why it is left out (null: it runs). */
    record Command(int line, String script, String leftOut) {

        /** The tools it runs that are not on this machine's PATH, as {@code needs psql, jq}; null when none is missing. */
        String missingTools() {
            List<String> missing = new ArrayList<>();
            for (String tool : List.of("psql", "jq", "curl", "promtool")) {
                if (Pattern.compile("(^|[|;&(\\s])" + tool + "\\s").matcher(script).find() && !onPath(tool)) {
                    missing.add(tool);
                }
            }
            return missing.isEmpty() ? null : "needs " + String.join(", ", missing) + ", not on the PATH";
        }
    }

    /** A command written inline in the prose: the line its code span starts on, and the span's text. */
    record Inline(int line, String text) {
    }

    private RunbookCommands() {
    }

    static List<Command> of(Path page) {
        List<String> lines = read(page);
        List<Command> commands = new ArrayList<>();
        String previous = "";
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            String fence = line.strip();
            if (fence.equals("```bash") || fence.equals("```sql")) {
                int start = i + 1;
                StringBuilder block = new StringBuilder();
                while (++i < lines.size() && !lines.get(i).strip().equals("```")) {
                    block.append(lines.get(i)).append('\n');
                }
                String script = fence.equals("```sql")
                        ? "psql \"$PGURL\" -X -q -v ON_ERROR_STOP=1 <<'SQL'\n" + block + "SQL\n" : block.toString();
                Matcher leftOut = LEFT_OUT.matcher(previous);
                commands.add(new Command(start, script, leftOut.matches() ? leftOut.group(1) : null));
            }
            if (!line.isBlank()) {
                previous = line;
            }
        }
        return commands;
    }

    /** Every command written inline in the page's prose, outside its fenced blocks. */
    static List<Inline> inline(Path page) {
        List<String> lines = read(page);
        List<Inline> found = new ArrayList<>();
        StringBuilder paragraph = new StringBuilder();
        int paragraphStart = 0;
        boolean fenced = false;
        for (int i = 0; i <= lines.size(); i++) {
            String line = i < lines.size() ? lines.get(i) : "";
            boolean fence = line.strip().startsWith("```");
            if (fenced || fence || line.isBlank()) {
                inParagraph(paragraph, paragraphStart, found);
                paragraph.setLength(0);
                fenced ^= fence;
                continue;
            }
            if (paragraph.isEmpty()) {
                paragraphStart = i + 1;
            }
            paragraph.append(line).append('\n');
        }
        return found;
    }

    private static void inParagraph(CharSequence paragraph, int firstLine, List<Inline> found) {
        for (Matcher span = CODE_SPAN.matcher(paragraph); span.find(); ) {
            String text = span.group(1).strip();
            if (COMMAND.matcher(text).matches()) {
                int line = firstLine + (int) paragraph.subSequence(0, span.start()).chars().filter(c -> c == '\n').count();
                found.add(new Inline(line, text.replaceAll("\\s*\n\\s*", " ")));
            }
        }
    }

    /** The block that derives {@code PGURL} from {@code DATABASE_URL}: every command runs after it, as the page says. */
    static String prelude(List<Command> commands) {
        return commands.stream().map(Command::script).filter(s -> s.contains("export PGURL=")).findFirst()
                .orElseThrow(() -> new AssertionError("the page no longer derives PGURL from DATABASE_URL"));
    }

    private static List<String> read(Path page) {
        try {
            return Files.readAllLines(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean onPath(String tool) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }
}
