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
 * The commands a runbook page gives an operator, as bash runs them: every {@code ```bash} block, every
 * {@code ```sql} block (through {@code psql "$PGURL"}, which the page's own {@code export PGURL=…} line derives from
 * {@code DATABASE_URL}), and every inline {@code curl} against {@code $PROJECTOR} or {@code $API}. A block right under
 * an HTML comment {@code <!-- runs: why not -->} is left out, with that reason.
 */
final class RunbookCommands {

    private static final Pattern LEFT_OUT = Pattern.compile("\\s*<!--\\s*runs:\\s*(.+?)\\s*-->\\s*");
    private static final Pattern INLINE_CURL = Pattern.compile("`(curl [^`]*\\$(?:PROJECTOR|API)\\b[^`]*)`");

    /** One command: where it is on the page, the bash script, and why it is left out (null: it runs). */
    record Command(int line, String script, String leftOut) {

        /** The tools it runs that are not on this machine's PATH, as {@code needs psql, jq}; null when none is missing. */
        String missingTools() {
            List<String> missing = new ArrayList<>();
            for (String tool : List.of("psql", "jq", "curl")) {
                if (Pattern.compile("(^|[|;&(\\s])" + tool + "\\s").matcher(script).find() && !onPath(tool)) {
                    missing.add(tool);
                }
            }
            return missing.isEmpty() ? null : "needs " + String.join(", ", missing) + ", not on the PATH";
        }
    }

    private RunbookCommands() {
    }

    static List<Command> of(Path page) {
        List<String> lines;
        try {
            lines = Files.readAllLines(page);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
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
            } else if (!fence.startsWith("```")) {
                for (Matcher curl = INLINE_CURL.matcher(line); curl.find(); ) {
                    commands.add(new Command(i + 1, curl.group(1) + "\n", null));
                }
            }
            if (!line.isBlank()) {
                previous = line;
            }
        }
        return commands;
    }

    /** The block that derives {@code PGURL} from {@code DATABASE_URL}: every command runs after it, as the page says. */
    static String prelude(List<Command> commands) {
        return commands.stream().map(Command::script).filter(s -> s.contains("export PGURL=")).findFirst()
                .orElseThrow(() -> new AssertionError("the page no longer derives PGURL from DATABASE_URL"));
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
