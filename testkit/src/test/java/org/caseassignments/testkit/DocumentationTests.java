package org.caseassignments.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The docs say what is: the classes they name exist, and every decision record says whether it still holds.
 *
 * <p><b>What counts as a class name.</b> A backticked span in {@code docs/*.md} or {@code docs/decisions/*.md}
 * whose whole text is an UpperCamelCase identifier with at least two humps ({@code AssignmentWriter}, not
 * {@code Rows}, {@code SQL}, {@code POSTGRES_URL}, {@code Idempotency-Key} or {@code ON CONFLICT}), optionally
 * followed by {@code .member} parts and an argument list ({@code AssignmentWriter.apply},
 * {@code AssignmentUpdate.snapshot(...)}, {@code OneRoundTrip.Along}), and optionally preceded by a module or
 * package path ({@code store/BatchReduction}, {@code ingest/BatchWriter}). The first identifier, and every later part
 * that is itself UpperCamelCase (a nested type; {@code CONSTANT_CASE} and lowerCamel members are not checked),
 * must be a type that some Java file under {@code <module>/src/main/java} or {@code <module>/src/test/java}
 * declares or imports (an import is how a library type the code uses counts), or one of {@link #ELSEWHERE}: the
 * library types and PostgreSQL functions the docs name that the code does not import. A name written right after
 * the word "formerly" is history and is not checked.
 *
 * <p><b>The Status line.</b> Each decision record's first paragraph after its title reads
 * {@code **Status:** <state>[. Amends <list>][. Supersedes <list>]} and then anything, where the state is
 * {@code Accepted}, {@code Amended by <list>} or {@code Superseded by <list>} and a list is
 * {@code [decision N](file.md)} links joined by ", ". An "Amended by N" is answered by N's "Amends", a
 * "Superseded by N" by N's "Supersedes", and the other way round.
 */
class DocumentationTests {

    /** Names the docs use that no project source declares or imports, each with where it lives. */
    private static final Map<String, String> ELSEWHERE = Map.ofEntries(
            Map.entry("AckMode", "org.springframework.kafka.listener.ContainerProperties.AckMode"),
            Map.entry("DefaultErrorHandler", "org.springframework.kafka.listener.DefaultErrorHandler"),
            Map.entry("ProductionExceptionHandler", "org.apache.kafka.streams.errors.ProductionExceptionHandler"),
            Map.entry("EnumFeature", "com.fasterxml.jackson.databind.cfg.EnumFeature"),
            Map.entry("BasicErrorController", "org.springframework.boot.webmvc.autoconfigure.error.BasicErrorController"),
            Map.entry("RangeVarGetRelidExtended", "PostgreSQL's C function that resolves and locks a table name"));

    private static final Pattern BACKTICKED = Pattern.compile("(formerly\\s+)?`([^`\\n]+)`");
    private static final Pattern CLASS_NAME = Pattern.compile(
            "(?:[a-z][a-z0-9-]*/)*([A-Z][a-z0-9]+[A-Z][A-Za-z0-9]*)((?:\\.[A-Za-z_][A-Za-z0-9_]*)*)(\\(.*\\))?");
    private static final Pattern NESTED_TYPE = Pattern.compile("[A-Z][a-z][A-Za-z0-9]*");
    private static final Pattern DECLARED = Pattern.compile("\\b(?:class|interface|record|enum)\\s+([A-Z]\\w*)");
    private static final Pattern IMPORTED = Pattern.compile(
            "^import\\s+(?:static\\s+)?[\\w.]*?\\.([A-Z]\\w*)(?:\\.[\\w*]+)*\\s*;", Pattern.MULTILINE);

    private static final Pattern CITED = Pattern.compile("ADR-(\\d{3})(?: D(\\d+))?");
    private static final Pattern ANCHOR = Pattern.compile("<a id=\"(adr-[a-z0-9-]+)\"></a>");

    private static final String LIST = "\\[decision \\d+\\]\\(\\d{4}-[a-z0-9-]+\\.md\\)(?:, \\[decision \\d+\\]\\(\\d{4}-[a-z0-9-]+\\.md\\))*";
    private static final Pattern STATUS = Pattern.compile("\\*\\*Status:\\*\\* (Accepted|Amended by (" + LIST
            + ")|Superseded by (" + LIST + "))(?:\\. Amends (" + LIST + "))?(?:\\. Supersedes (" + LIST + "))?\\.(?: .*)?");
    /** A numbered line of a Markdown list, which inside the walk must be a {@link #WALK_STEP}. */
    private static final Pattern NUMBERED_LINE = Pattern.compile("\\d+\\. ");
    /** A step of the walk in docs/architecture.md: {@code 3. `CaseEventReader` (ingest): what it does}. */
    private static final Pattern WALK_STEP = Pattern.compile("(\\d+)\\. `([A-Z][A-Za-z0-9]*)` \\(([a-z-]+)\\): .+");
    private static final Pattern LINK = Pattern.compile("\\[decision (\\d+)\\]\\((\\d{4})-[a-z0-9-]+\\.md\\)");

    @Test
    void shouldNameOnlyClassesThatTheSourcesDeclareOrImport() {
        Set<String> known = typesOfTheSources();
        known.addAll(ELSEWHERE.keySet());
        List<String> unknown = new ArrayList<>();
        for (Path doc : docs()) {
            List<String> lines = lines(doc);
            for (int i = 0; i < lines.size(); i++) {
                Matcher span = BACKTICKED.matcher(lines.get(i));
                while (span.find()) {
                    Matcher name = CLASS_NAME.matcher(span.group(2));
                    if (span.group(1) != null || !name.matches()) {
                        continue;
                    }
                    List<String> types = new ArrayList<>(List.of(name.group(1)));
                    for (String part : name.group(2).split("\\.")) {
                        if (NESTED_TYPE.matcher(part).matches()) {
                            types.add(part);
                        }
                    }
                    for (String type : types) {
                        if (!known.contains(type)) {
                            unknown.add(root().relativize(doc) + ":" + (i + 1) + ": " + type
                                    + (type.equals(span.group(2)) ? "" : " (in `" + span.group(2) + "`)"));
                        }
                    }
                }
            }
        }
        assertThat(unknown)
                .as("classes named in docs that no source declares or imports (file:line: name); rename them, or "
                        + "write \"formerly `Name`\" where the history matters")
                .isEmpty();
    }

    @Test
    void shouldGiveEveryDecisionAStatusLineThatItsLaterDecisionsAnswer() {
        Map<String, Status> statuses = new TreeMap<>();
        List<String> problems = new ArrayList<>();
        for (Path record : decisions()) {
            String number = record.getFileName().toString().substring(0, 4);
            List<String> lines = lines(record);
            StringBuilder paragraph = new StringBuilder();
            for (int i = 2; i < lines.size() && !lines.get(i).isBlank(); i++) {
                paragraph.append(paragraph.isEmpty() ? "" : " ").append(lines.get(i).strip());
            }
            Matcher status = STATUS.matcher(paragraph);
            if (!lines.get(0).startsWith("# ") || !lines.get(1).isBlank() || !status.matches()) {
                problems.add(record.getFileName() + ": no Status line right under the title in the form "
                        + "**Status:** Accepted|Amended by [decision N](file)|Superseded by [decision N](file)[. Amends …][. Supersedes …].");
                continue;
            }
            for (Matcher link = LINK.matcher(paragraph); link.find(); ) {
                if (!link.group(2).equals("%04d".formatted(Integer.parseInt(link.group(1))))
                        || !Files.exists(record.resolveSibling(link.group(0).replaceAll(".*\\((.*)\\)", "$1")))) {
                    problems.add(record.getFileName() + ": the link " + link.group(0) + " leads nowhere");
                }
            }
            statuses.put(number, new Status(numbers(status.group(2)), numbers(status.group(3)),
                    numbers(status.group(4)), numbers(status.group(5))));
        }
        statuses.forEach((number, status) -> {
            answered(problems, number, "Amended by", status.amendedBy(), statuses, "Amends", Status::amends);
            answered(problems, number, "Amends", status.amends(), statuses, "Amended by", Status::amendedBy);
            answered(problems, number, "Superseded by", status.supersededBy(), statuses, "Supersedes", Status::supersedes);
            answered(problems, number, "Supersedes", status.supersedes(), statuses, "Superseded by", Status::supersededBy);
        });
        assertThat(problems).isEmpty();
        assertThat(statuses).hasSizeGreaterThanOrEqualTo(33);
    }

    @Test
    void shouldSummariseInOriginsEveryDesignRecordSectionTheCodeOrTheDocsCite() {
        Set<String> anchors = new HashSet<>();
        ANCHOR.matcher(String.join("\n", lines(root().resolve("docs/origins.md")))).results()
                .forEach(anchor -> anchors.add(anchor.group(1)));
        List<String> unexplained = new ArrayList<>();
        List<Path> citing = new ArrayList<>(docs());
        citing.addAll(sources());
        for (Path file : citing) {
            List<String> lines = lines(file);
            for (int i = 0; i < lines.size(); i++) {
                for (Matcher cited = CITED.matcher(lines.get(i)); cited.find(); ) {
                    String anchor = ("adr-" + cited.group(1) + (cited.group(2) == null ? "" : "-d" + cited.group(2)));
                    if (!anchors.contains(anchor)) {
                        unexplained.add(root().relativize(file) + ":" + (i + 1) + ": " + cited.group() + " (no #" + anchor + ")");
                    }
                }
            }
        }
        assertThat(unexplained).as("design records cited but not summarised in docs/origins.md").isEmpty();
        assertThat(anchors).contains("adr-060-d5", "adr-035");
    }

    /**
     * The walk of one accepted event in docs/architecture.md is a list of {@code N. `Class` (module): …} lines: each
     * class is declared in that module's main code, and the list stays within what a newcomer should have to open —
     * the files and the module transitions between consecutive files computed here, never written by hand.
     */
    @Test
    void shouldListTheWalkOfAnAcceptedEventWithClassesThatExistInTheirModulesWithinTwelveFilesAndFourTransitions() {
        List<WalkStep> walk = walk(lines(root().resolve("docs/architecture.md")));
        List<String> missing = new ArrayList<>();
        for (WalkStep step : walk) {
            Path main = root().resolve(step.module()).resolve("src/main/java");
            try (Stream<Path> files = Files.exists(main) ? Files.walk(main) : Stream.empty()) {
                if (files.noneMatch(file -> file.getFileName().toString().equals(step.type() + ".java"))) {
                    missing.add(step.type() + " (" + step.module() + ")");
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        int transitions = 0;
        for (int i = 1; i < walk.size(); i++) {
            if (!walk.get(i).module().equals(walk.get(i - 1).module())) {
                transitions++;
            }
        }

        assertThat(walk).as("the walk's steps").isNotEmpty();
        assertThat(missing).as("classes the walk lists that their module's main code does not declare").isEmpty();
        assertThat(walk).as("files on the walk").hasSizeLessThanOrEqualTo(12).doesNotHaveDuplicates();
        assertThat(transitions).as("module transitions on the walk").isLessThanOrEqualTo(4);
    }

    @Test
    void shouldRefuseAWalkWithANumberedLineThatIsNotAStep() {
        // Given a walk whose second numbered line does not name its class and module as a step does
        List<String> lines = List.of("### The walk of one accepted event", "",
                "1. `ProjectorTopology` (projector): reads the input topics",
                "2. DecodeProcessor in projector: decodes the record",
                "3. `Guard` (store): the never-rewind rule");

        // When it is read, then it is refused, naming that line, rather than skipped
        assertThatThrownBy(() -> walk(lines)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("2. DecodeProcessor in projector");
    }

    /**
     * The steps of the walk section in {@code lines}: every numbered line in it ({@code N. }) must be a step, numbered
     * in order, so that none is skipped unread.
     */
    private static List<WalkStep> walk(List<String> lines) {
        int from = lines.indexOf("### The walk of one accepted event");
        assertThat(from).as("docs/architecture.md has a section \"### The walk of one accepted event\"").isNotNegative();
        List<WalkStep> walk = new ArrayList<>();
        List<String> notSteps = new ArrayList<>();
        List<Integer> numbers = new ArrayList<>();
        for (int i = from + 1; i < lines.size() && !lines.get(i).startsWith("#"); i++) {
            if (!NUMBERED_LINE.matcher(lines.get(i)).lookingAt()) {
                continue;
            }
            Matcher step = WALK_STEP.matcher(lines.get(i));
            if (!step.matches()) {
                notSteps.add(lines.get(i));
                continue;
            }
            numbers.add(Integer.parseInt(step.group(1)));
            walk.add(new WalkStep(step.group(2), step.group(3)));
        }
        assertThat(notSteps).as("numbered lines of the walk that are not a step N. `Class` (module): …").isEmpty();
        assertThat(numbers).as("step numbers in order").isEqualTo(IntStream.rangeClosed(1, walk.size()).boxed().toList());
        return walk;
    }

    private record WalkStep(String type, String module) {
    }

    private record Status(Set<String> amendedBy, Set<String> supersededBy, Set<String> amends, Set<String> supersedes) {
    }

    private static void answered(List<String> problems, String number, String says, Set<String> others,
            Map<String, Status> statuses, String answer, java.util.function.Function<Status, Set<String>> answers) {
        for (String other : others) {
            Status theirs = statuses.get(other);
            if (theirs == null || !answers.apply(theirs).contains(number)) {
                problems.add("decision " + number + " says \"" + says + " " + other + "\" but decision " + other
                        + " does not say \"" + answer + " " + number + "\"");
            }
        }
    }

    private static Set<String> numbers(String list) {
        Set<String> numbers = new HashSet<>();
        if (list != null) {
            for (Matcher link = LINK.matcher(list); link.find(); ) {
                numbers.add(link.group(2));
            }
        }
        return numbers;
    }

    private static Set<String> typesOfTheSources() {
        Set<String> types = new HashSet<>();
        for (Path file : sources()) {
            if (file.toString().endsWith(".java")) {
                String source = String.join("\n", lines(file));
                types.add(file.getFileName().toString().replace(".java", ""));
                DECLARED.matcher(source).results().forEach(type -> types.add(type.group(1)));
                IMPORTED.matcher(source).results().forEach(type -> types.add(type.group(1)));
            }
        }
        return types;
    }

    /** Every file under a module's {@code src/main} or {@code src/test}: Java, SQL, YAML and the rest. */
    private static List<Path> sources() {
        try (Stream<Path> files = Files.walk(root())) {
            return files.filter(Files::isRegularFile)
                    .filter(file -> root().relativize(file).toString().matches("[^/]+/src/(main|test)/.*"))
                    .filter(file -> file.toString().matches(".*\\.(java|sql|ya?ml|properties|md)"))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> docs() {
        List<Path> docs = new ArrayList<>(markdown(root().resolve("docs")));
        docs.addAll(decisions());
        return docs;
    }

    private static List<Path> decisions() {
        return markdown(root().resolve("docs/decisions"));
    }

    private static List<Path> markdown(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(file -> file.toString().endsWith(".md")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The repository's root: the folder that holds {@code ops/}. */
    private static Path root() {
        return OpsDefinitions.root().getParent();
    }
}
