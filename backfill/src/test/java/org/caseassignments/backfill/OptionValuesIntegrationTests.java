package org.caseassignments.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;

import org.caseassignments.testkit.RealDatabaseTest;
import org.caseassignments.testkit.TestDatabase;
import org.caseassignments.testkit.TestKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import picocli.CommandLine;

/**
 * Every numeric option of every subcommand refuses what means nothing — a negative count, zero where zero is no
 * answer, a number its type cannot hold, a duration of no time — as bad usage (64), naming the option, before the job
 * touches anything. Each command line names a topic or a file that does not exist, so a value that got through would
 * end the run at once rather than do work.
 */
@RealDatabaseTest
class OptionValuesIntegrationTests {

    static final TestDatabase DB = TestDatabase.migrated();
    static final String NO_TOPIC = TestKafka.uniqueTopic("absent");
    static final String NO_FILE = "/nonexistent/snapshot.csv";

    @Autowired
    CommandLine commandLine;

    /**
     * The option refused, then the command line: {@code TOPIC} and {@code FILE} stand for a topic and a file that do
     * not exist, {@code 99999999999} for a number an {@code int} cannot hold.
     */
    private static final String MEANINGLESS = """
            --max                  dead-letters --dead-letter-topic TOPIC --max -1
            --max                  dead-letters --dead-letter-topic TOPIC --max 0
            --max                  dead-letters --dead-letter-topic TOPIC --max many
            --max                  dead-letters --dead-letter-topic TOPIC --max 99999999999
            --source-partition     dead-letters --dead-letter-topic TOPIC --source-partition -1
            --from-offset          dead-letters --dead-letter-topic TOPIC --from-offset -1
            --to-offset            redrive --dead-letter-topic TOPIC --to-offset -1
            --to-offset            redrive --dead-letter-topic TOPIC --from-offset 10 --to-offset 10
            --to-offset            redrive --dead-letter-topic TOPIC --to-offset 0
            --to-offset            dead-letters --dead-letter-topic TOPIC --to-offset 0
            --batch-size           redrive --dead-letter-topic TOPIC --batch-size 0
            --batch-size           redrive --dead-letter-topic TOPIC --batch-size 99999999999
            --sample               redrive --dead-letter-topic TOPIC --sample -1
            --batch-size           replay --topics TOPIC --batch-size 0
            --batch-size           replay --topics TOPIC --batch-size -1
            --batch-size           replay --topics TOPIC --batch-size 99999999999
            --progress-interval    replay --topics TOPIC --progress-interval 0s
            --progress-interval    replay --topics TOPIC --progress-interval -5s
            --batch-size           rebuild --topics TOPIC --batch-size 0
            --sample               rebuild --topics TOPIC --sample -1
            --swap-within          rebuild --topics TOPIC --swap-within 0s
            --swap-within          rebuild --topics TOPIC --swap-within -1s
            --swap-lock-timeout    rebuild --topics TOPIC --swap-lock-timeout 0ms
            --swap-lock-timeout-ms rebuild --topics TOPIC --swap-lock-timeout-ms -500
            --batch-size           verify --file FILE --batch-size 0
            --sample               verify --file FILE --sample -1
            --max-errors           assignments --file FILE --max-errors -1
            --max-batches          assignments --file FILE --max-batches 0
            --max-batches          assignments --file FILE --max-batches -3
            --parallelism          assignments --file FILE --parallelism 99999999999
            --fetch-size           assignments --jdbc-url jdbc:postgresql://127.0.0.1:1/none --query SELECT --fetch-size 0
            --batch-size           repair --dry-run --batch-size 0
            --batch-size           repair --dry-run --batch-size -1
            --batch-size           history-purge --older-than 3650d --dry-run --batch-size 0
            --older-than           history-purge --older-than -1d --dry-run
            --max-lines            occupancy --max-lines -1
            --statement-timeout    occupancy --statement-timeout 0s
            """;

    static Stream<Arguments> meaninglessValues() {
        return MEANINGLESS.lines().map(line -> line.strip().split("\\s+", 2))
                .map(refused -> Arguments.of(refused[0], refused[1].replace("TOPIC", NO_TOPIC).replace("FILE", NO_FILE)));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("meaninglessValues")
    void shouldExit64NamingTheOptionWhenANumberMeansNothing(String option, String commandLine) {
        Cli.Run run = new Cli(this.commandLine).run(commandLine.split(" "));

        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(firstLine(run.err())).as(run.toString()).contains(option);
    }

    @Test
    void shouldExit64NamingBothWhenTheDeprecatedSwapLockTimeoutMsIsGivenWithItsReplacement() {
        Cli.Run run = new Cli(commandLine).run("rebuild", "--topics", NO_TOPIC, "--swap-lock-timeout", "1s",
                "--swap-lock-timeout-ms", "500");

        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(firstLine(run.err())).as(run.toString()).contains("--swap-lock-timeout-ms", "--swap-lock-timeout ");
    }

    /**
     * Two options of which one would silently win, then the command line. A rebuild's {@code --undo} and
     * {@code --drop-previous} do real work, so a {@code --dry-run} beside either would be ignored; a replay that
     * resumes from the group's offsets would ignore where {@code --from-timestamp} says to start.
     */
    private static final String PAIRS = """
            --dry-run --undo              rebuild --topics TOPIC --dry-run --undo
            --dry-run --drop-previous     rebuild --topics TOPIC --dry-run --drop-previous
            --undo --drop-previous        rebuild --topics TOPIC --undo --drop-previous
            --resume --from-timestamp     replay --topics TOPIC --resume --from-timestamp 2026-01-01T00:00:00Z
            """;

    static Stream<Arguments> pairsOfWhichOneWouldWin() {
        return PAIRS.lines().map(line -> line.strip().split("\\s+", 3))
                .map(pair -> Arguments.of(pair[0], pair[1], pair[2].replace("TOPIC", NO_TOPIC)));
    }

    @ParameterizedTest(name = "{2}")
    @MethodSource("pairsOfWhichOneWouldWin")
    void shouldExit64NamingBothWhenTwoOptionsWouldHaveOneSilentlyWin(String option, String other, String commandLine) {
        Cli.Run run = new Cli(this.commandLine).run(commandLine.split(" "));

        assertThat(run.exit()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(firstLine(run.err())).as(run.toString()).contains(option + " and " + other);
    }

    /** The error itself: the usage that follows it names every option. */
    private static String firstLine(String err) {
        return err.lines().findFirst().orElse("");
    }
}
