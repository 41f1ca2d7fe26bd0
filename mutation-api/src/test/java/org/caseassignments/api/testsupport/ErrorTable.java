package org.caseassignments.api.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The error table of the API's reference page (docs/mutation-api.md, "Errors"), as clients read it. */
public final class ErrorTable {

    private static final Pattern CODE = Pattern.compile("`([A-Z_]+)`");

    private ErrorTable() {
    }

    /**
     * Each code the table lists, with the status its row gives it. A row may list several codes with as many
     * statuses ({@code 405 / 406 / 415}), paired in order, or several codes with one status.
     */
    public static Map<String, Integer> statusByCode() {
        String page;
        try {
            page = Files.readString(Path.of("..", "docs", "mutation-api.md"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String errors = page.substring(page.indexOf("\n## Errors"));
        errors = errors.substring(0, errors.indexOf("\n## ", 1));
        Map<String, Integer> codes = new TreeMap<>();
        for (String line : errors.lines().filter(line -> line.startsWith("| ")).toList()) {
            String[] cells = line.split("\\|");
            List<String> statuses = List.of(cells[1].strip().split("\\s*/\\s*"));
            List<String> named = CODE.matcher(cells.length > 2 ? cells[2] : "").results().map(code -> code.group(1)).toList();
            if (named.isEmpty() || !statuses.stream().allMatch(status -> status.matches("\\d{3}"))) {
                continue; // the header, its rule, or a row about something else
            }
            if (statuses.size() != 1 && statuses.size() != named.size()) {
                throw new IllegalStateException("a row of the error table pairs " + statuses + " with " + named);
            }
            for (int i = 0; i < named.size(); i++) {
                codes.put(named.get(i), Integer.parseInt(statuses.get(statuses.size() == 1 ? 0 : i)));
            }
        }
        return codes;
    }
}
