package org.caseassignments.local;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/** What the local stack prints when it is ready: where things are, how to call them, and who to be. */
final class Banner {

    private final PrintStream out;
    private final String api;
    private final Path tokensFile;
    private final Map<String, String> tokens;
    private final Path dataDir;
    private final String projector;
    private final boolean printTokens;
    private final String durabilityWarning;
    private final String prometheus;
    private final String pushgateway;
    private final Path jobsFile;

    /**
     * @param printTokens       print the tokens themselves too (they are long); otherwise only where they are
     * @param durabilityWarning what the database trades for speed, or null
     * @param prometheus        the address of the Prometheus of {@code --observe}, or null
     * @param pushgateway       the host and port of the Pushgateway of {@code --observe}, or null
     * @param jobsFile          the environment a backfill job needs to reach this stack
     */
    Banner(PrintStream out, String api, String projector, Path tokensFile, Map<String, String> tokens, Path dataDir,
           boolean printTokens, String durabilityWarning, String prometheus, String pushgateway, Path jobsFile) {
        this.out = out;
        this.api = api;
        this.projector = projector;
        this.tokensFile = tokensFile;
        this.tokens = tokens;
        this.dataDir = dataDir;
        this.printTokens = printTokens;
        this.durabilityWarning = durabilityWarning;
        this.prometheus = prometheus;
        this.pushgateway = pushgateway;
        this.jobsFile = jobsFile;
    }

    void print(Duration startup) {
        String caseId = SampleCase.CASE_ID.toString();
        out.printf("""

                ──────────────────────────────────────────────────────────────────────────────
                 case-assignments — local stack (started in %d s)
                ──────────────────────────────────────────────────────────────────────────────
                 API          %s
                 OpenAPI      %s/v3/api-docs   (UI: %s/swagger-ui.html)
                 Projector    %s/readyz
                 Sample case  %s, assigned to %s
                 Data         %s   (logs in %s)

                 Bearer tokens (issuer %s, valid 12 h), one per role and jurisdiction:
                   source %s
                 sets %s.
                """, startup.toSeconds(), api, api, api, projector, caseId, SampleCase.WORKER,
                dataDir.toAbsolutePath(), dataDir.resolve("logs"), LocalTokens.ISSUER, tokensFile,
                String.join(", ", tokens.keySet()));
        if (prometheus != null) {
            out.println(" Prometheus   " + prometheus + "/alerts   (the rules of ops/prometheus; the dashboards' queries in "
                    + prometheus + "/graph)");
        }
        if (pushgateway != null) {
            out.println(" Pushgateway  http://" + pushgateway + "   (what the backfill jobs push: the jobs dashboard, BackfillJobFailed;"
                    + " kept in the data folder across restarts, so a failed job's alert fires until its group is deleted,"
                    + " docs/operations.md#backfilljobfailed, or --fresh)");
        }
        out.println(" Backfill     source " + jobsFile + ", then ./backfill-cli --help"
                + (pushgateway != null ? "   (the jobs push to the Pushgateway)" : ""));
        if (durabilityWarning != null) {
            out.println(" Durability   " + durabilityWarning + ".");
        }
        if (printTokens) {
            out.println();
            tokens.forEach((name, token) -> out.println("export " + name + "=" + token));
        } else {
            out.println(" (./run --print-tokens prints the tokens themselves here.)");
        }
        out.printf("""

                 Try it, in a shell that ran the source line above:

                   # the case's assignment, from the projection
                   curl -s -w '\\n' -H "Authorization: Bearer $GEORGIA_CASEWORKER_TOKEN" %s/cases/%s/assignment

                   # a supervisor registers a foster home (PENDING) and activates its license
                   FOSTER_HOME=%s$(curl -s -o /dev/null -w '%%header{location}' -X POST \\
                     -H "Authorization: Bearer $GEORGIA_SUPERVISOR_TOKEN" -H 'Content-Type: application/json' \\
                     -d '{"name":"Maple House","license_number":"GA-'$RANDOM'","admin_unit":"%s","capacity":2}' \\
                     %s/foster-homes)
                   curl -s -w '\\n' -X PATCH -H "Authorization: Bearer $GEORGIA_SUPERVISOR_TOKEN" -H 'Content-Type: application/json' \\
                     -H "If-Match: $(curl -s -o /dev/null -w '%%header{etag}' -H "Authorization: Bearer $GEORGIA_SUPERVISOR_TOKEN" $FOSTER_HOME)" \\
                     -d '{"license_status":"ACTIVE"}' $FOSTER_HOME

                   # propose a placement in that home as the assigned caseworker; keep its URL and ETag
                   PLACEMENT=%s$(curl -s -o /dev/null -w '%%header{location}' -X POST \\
                     -H "Authorization: Bearer $GEORGIA_CASEWORKER_TOKEN" -H 'Content-Type: application/json' \\
                     -d '{"foster_home_id":"'${FOSTER_HOME##*/}'","start_date":"2026-12-01"}' %s/cases/%s/placements)
                   ETAG=$(curl -s -o /dev/null -w '%%header{etag}' -H "Authorization: Bearer $GEORGIA_CASEWORKER_TOKEN" $PLACEMENT)
                   curl -s -w '\\n' -H "Authorization: Bearer $GEORGIA_CASEWORKER_TOKEN" $PLACEMENT

                   # activate it (the child is placed), guarded by If-Match (a second run with the same ETag answers 412);
                   # an ACTIVE placement is always in a licensed home of the case's jurisdiction, with room left
                   curl -s -w '\\n' -X PATCH -H "Authorization: Bearer $GEORGIA_CASEWORKER_TOKEN" -H "If-Match: $ETAG" \\
                     -H 'Content-Type: application/json' -d '{"status":"ACTIVE"}' $PLACEMENT

                   # a caseworker the case is not assigned to: 403
                   curl -s -o /dev/null -w '%%{http_code}\\n' -H "Authorization: Bearer $GEORGIA_CASEWORKER_2_TOKEN" $PLACEMENT

                 Ctrl-C stops everything. Start again with the same data, or with --fresh for none.
                ──────────────────────────────────────────────────────────────────────────────
                """, api, caseId, api, LocalTokens.adminUnit("georgia"), api, api, api, caseId);
    }
}
