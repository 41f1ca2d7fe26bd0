package org.caseassignments.backfill;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.CommandLineRunner;
import org.springframework.boot.ExitCodeGenerator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** Runs the picocli command line with its subcommands, the Spring beans annotated {@code @Command}, and keeps its exit code. */
@Configuration(proxyBeanMethods = false)
class CommandLineRunnerConfiguration {

    @Bean
    CommandLine commandLine(CommandLine.IFactory factory, org.springframework.context.ApplicationContext context) {
        CommandLine commandLine = new CommandLine(new BackfillCommand(), factory);
        context.getBeansWithAnnotation(Command.class).values().stream()
                .sorted(java.util.Comparator.comparing(bean -> bean.getClass().getAnnotation(Command.class).name()))
                .forEach(subcommand -> commandLine.addSubcommand(new CommandLine(subcommand, factory)));
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.registerConverter(java.time.Duration.class, new DurationOption());
        conventions(commandLine);
        commandLine.setExecutionExceptionHandler((e, cmd, parseResult) -> {
            cmd.getErr().println(cmd.getColorScheme().errorText("backfill " + cmd.getCommandName() + ": " + e.getMessage()));
            return ExitCodes.failure(e);
        });
        return commandLine;
    }

    /** What every command shares: bad usage exits {@link ExitCodes#USAGE}, and every --help lists the shared exit codes. */
    private static void conventions(CommandLine command) {
        command.getCommandSpec().exitCodeOnInvalidInput(ExitCodes.USAGE);
        String[] footer = command.getCommandSpec().usageMessage().footer();
        String[] withShared = java.util.Arrays.copyOf(footer, footer.length + ExitCodes.HELP_FOOTER.length);
        System.arraycopy(ExitCodes.HELP_FOOTER, 0, withShared, footer.length, ExitCodes.HELP_FOOTER.length);
        command.getCommandSpec().usageMessage().footer(withShared);
        command.getSubcommands().values().forEach(CommandLineRunnerConfiguration::conventions);
    }

    @Bean
    CommandLine.IFactory picocliFactory(org.springframework.context.ApplicationContext context) {
        return new CommandLine.IFactory() {
            @Override
            public <K> K create(Class<K> type) throws Exception {
                try {
                    return context.getBean(type);
                } catch (org.springframework.beans.BeansException e) {
                    return CommandLine.defaultFactory().create(type);
                }
            }
        };
    }

    @Bean
    CommandRunner commandRunner(CommandLine commandLine, MeterRegistry meters) {
        return new CommandRunner(commandLine, meters);
    }

    /**
     * Executes the command once at startup; usage errors exit {@link ExitCodes#USAGE} as picocli reports them. Its exit code is the gauge
     * {@code backfill.job.exit_code} (-1 while it runs), pushed with the job's last push, so a failed job alerts.
     */
    static final class CommandRunner implements CommandLineRunner, ExitCodeGenerator {
        static final String EXIT_CODE_METRIC = "backfill.job.exit_code";
        private static final int RUNNING = -1;

        private final CommandLine commandLine;
        private volatile int exitCode = RUNNING;

        CommandRunner(CommandLine commandLine, MeterRegistry meters) {
            this.commandLine = commandLine;
            Gauge.builder(EXIT_CODE_METRIC, this, runner -> runner.exitCode)
                    .description("The job's exit code once it ended (0 done, 1 rejected rows, 2 failed, "
                            + "3 stopped before the end, 4 another run holds the job's claim, 64 bad usage, "
                            + "69 a dependency unavailable); -1 while it runs")
                    .register(meters);
        }

        @Override
        public void run(String... args) {
            exitCode = commandLine.execute(args);
        }

        @Override
        public int getExitCode() {
            return Math.max(exitCode, ExitCodes.SUCCESS);
        }
    }
}
