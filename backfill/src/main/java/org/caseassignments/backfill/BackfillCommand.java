package org.caseassignments.backfill;

import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top-level command; its subcommands (every Spring bean annotated {@code @Command}) do the work. */
@Command(name = "backfill", mixinStandardHelpOptions = true, usageHelpWidth = 110,
        description = "Seed, repair, replay, rebuild, re-drive and verify the case_assignments projection without ever moving an assignment backwards by accident, and check the foster homes' occupancy.",
        footer = {"", "Exit codes: 0 success; 1 finished with rejected rows (replay: dead-lettered; redrive: still failing or skipped; verify: differences; occupancy: rows that break a rule);",
                "2 refused to start, or stopped by a failure; 3 stopped by --max-batches (run again to continue);",
                "4 refused at once: another run holds the job's claim (rebuild)."})
class BackfillCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    /** Without a subcommand there is nothing to do: show what there is. */
    @Override
    public Integer call() {
        spec.commandLine().getErr().println("backfill: name a subcommand");
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }
}
