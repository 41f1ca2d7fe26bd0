package org.caseassignments.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * Every environment variable a deployable's {@code application.yml} reads ({@code ${NAME:default}}) has its row in
 * docs/settings.md, where it is written in backticks.
 */
class SettingsDocumentationTests {

    private static final Pattern VARIABLE = Pattern.compile("\\$\\{([A-Z][A-Z0-9_]*)[:}]");

    @Test
    void shouldDocumentEveryVariableTheApplicationsRead() throws IOException {
        Path root = OpsDefinitions.root().getParent();
        String settings = Files.readString(root.resolve("docs/settings.md"));
        List<String> undocumented = new ArrayList<>();
        for (Path yml : applicationFiles(root)) {
            for (Matcher variable = VARIABLE.matcher(Files.readString(yml)); variable.find(); ) {
                if (!settings.contains("`" + variable.group(1) + "`")) {
                    undocumented.add(root.relativize(yml) + ": " + variable.group(1));
                }
            }
        }
        assertThat(undocumented).as("variables read by an application.yml but not in docs/settings.md").isEmpty();
    }

    private static List<Path> applicationFiles(Path root) {
        try (Stream<Path> files = Files.walk(root, 5)) {
            return files.filter(file -> root.relativize(file).toString().matches("[^/]+/src/main/resources/application\\.ya?ml"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
