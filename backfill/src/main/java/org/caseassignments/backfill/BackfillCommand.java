package org.caseassignments.backfill;

import picocli.CommandLine.Command;

/** The top-level command; its subcommands do the work. */
@Command(name = "backfill", mixinStandardHelpOptions = true,
        description = "Seed, repair, replay and verify the case_assignments projection without ever moving an assignment backwards.",
        subcommands = {StatusCommand.class})
class BackfillCommand {
}
