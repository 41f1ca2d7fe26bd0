package org.caseassignments.backfill;

import java.io.PrintWriter;
import java.io.StringWriter;

import picocli.CommandLine;

/** Runs the application's command line in-process and captures what it printed. */
public final class Cli {

    private final CommandLine commandLine;

    public Cli(CommandLine commandLine) {
        this.commandLine = commandLine;
    }

    public Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exit = commandLine.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }

    /** One execution: its exit code and its standard output and error. */
    public record Run(int exit, String out, String err) {

        @Override
        public String toString() {
            return "exit " + exit + "\n--- out ---\n" + out + "--- err ---\n" + err;
        }
    }
}
