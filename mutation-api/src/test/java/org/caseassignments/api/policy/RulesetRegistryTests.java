package org.caseassignments.api.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.caseassignments.api.security.Caller;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/** Loading, replacing and rejecting rulesets while the service runs. */
class RulesetRegistryTests {

    private static final Caller CASEWORKER = new Caller("w-1", List.of("caseworker"), "georgia", List.of());
    private static final ResourceRef SOMEONE_ELSES_PLACEMENT = new ResourceRef(ResourceType.PLACEMENT,
            UUID.randomUUID(), UUID.randomUUID(), "w-2", "s-2", Map.of("status", "PROPOSED"), "georgia");

    @TempDir
    Path directory;

    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();
    private final Logger registryLog = (Logger) LoggerFactory.getLogger(RulesetRegistry.class);

    @BeforeEach
    void captureLog() {
        logged.start();
        registryLog.addAppender(logged);
    }

    @AfterEach
    void releaseLog() {
        registryLog.detachAppender(logged);
    }

    @Test
    void shouldServeTheBundledRulesetsWhenTheDirectoryHasNone() {
        RulesetRegistry registry = new RulesetRegistry(directory);

        assertThat(registry.versions()).isEqualTo(Map.of("georgia", "1.3.0", "texas", "1.3.0"));
    }

    @Test
    void shouldReplaceAJurisdictionAndAddANewOneFromTheDirectory() throws IOException {
        write("georgia.yaml", permissive("georgia", "2.0.0"));
        write("ohio.json", """
                {"jurisdiction": "ohio", "version": "0.1.0",
                 "rules": [{"id": "admins", "resources": ["foster_home"], "actions": ["read"],
                            "condition": "'admin' in claims.roles"}]}
                """);

        RulesetRegistry registry = new RulesetRegistry(directory);

        assertThat(registry.versions()).isEqualTo(Map.of("georgia", "2.0.0", "texas", "1.3.0", "ohio", "0.1.0"));
    }

    @Test
    void shouldRejectAnInvalidReplacementLogItOnceAndKeepServingTheLastGoodVersion() throws IOException {
        write("georgia.yaml", permissive("georgia", "2.0.0"));
        RulesetRegistry registry = new RulesetRegistry(directory);
        PolicyEngine engine = new PolicyEngine(registry, new SimpleMeterRegistry());
        assertThat(engine.allows(CASEWORKER, Action.UPDATE, SOMEONE_ELSES_PLACEMENT)).isTrue();

        write("georgia.yaml", permissive("georgia", "3.0.0").replace("condition: \"true\"",
                "condition: \"claims.sub ==\""));
        RulesetRegistry.ReloadReport first = registry.reload();
        RulesetRegistry.ReloadReport second = registry.reload();

        assertThat(first.rejected()).containsExactly(directory.resolve("georgia.yaml").toString());
        assertThat(second.rejected()).as("the same bad content is logged once").isEmpty();
        assertThat(registry.rejectedFiles()).containsExactly(directory.resolve("georgia.yaml"));
        assertThat(registry.versions()).containsEntry("georgia", "2.0.0");
        assertThat(engine.allows(CASEWORKER, Action.UPDATE, SOMEONE_ELSES_PLACEMENT)).isTrue();
        assertThat(logged.list).filteredOn(event -> event.getFormattedMessage().startsWith("Rejected ruleset file"))
                .singleElement()
                .satisfies(event -> assertThat(event.getFormattedMessage())
                        .contains("georgia.yaml", "does not compile", "Still serving version 2.0.0"));
    }

    @Test
    void shouldGiveAJurisdictionBackToItsBundledRulesetWhenItsFileIsRemoved() throws IOException {
        write("texas.yaml", permissive("texas", "2.0.0"));
        RulesetRegistry registry = new RulesetRegistry(directory);

        Files.delete(directory.resolve("texas.yaml"));
        registry.reload();

        assertThat(registry.versions()).containsEntry("texas", "1.3.0");
    }

    @Test
    void shouldRejectDocumentsThatDoNotTypeCheckOrDoNotSayWhatTheyMean() throws IOException {
        write("alpha.yaml", permissive("alpha", "1.0.0").replace("condition: \"true\"", "condition: \"'yes'\""));
        write("bravo.yaml", permissive("bravo", "1.0.0").replace("condition: \"true\"", "condition: \"unknown_var\""));
        write("charlie.yaml", permissive("charlie", "1.0.0").replace("[read, create, update]", "[read, delete]"));
        write("delta.yaml", permissive("delta", "1.0.0").replace("\"1.0.0\"", "1.0"));
        write("echo.yaml", permissive("someone-else", "1.0.0"));
        write("foxtrot.yaml", permissive("foxtrot", "1.0.0").replace("    condition:", "    conditoin:"));
        write("golf.yaml", "rules: [");

        RulesetRegistry registry = new RulesetRegistry(directory);

        assertThat(registry.versions()).containsOnlyKeys("georgia", "texas");
        assertThat(registry.rejectedFiles()).hasSize(7);
        assertThat(logged.list).extracting(ILoggingEvent::getFormattedMessage)
                .anySatisfy(message -> assertThat(message).contains("alpha.yaml", "does not compile"))
                .anySatisfy(message -> assertThat(message).contains("bravo.yaml", "undeclared reference"))
                .anySatisfy(message -> assertThat(message).contains("charlie.yaml", "unknown actions entry 'delete'"))
                .anySatisfy(message -> assertThat(message).contains("delta.yaml", "'version' must be a non-blank string"))
                .anySatisfy(message -> assertThat(message).contains("echo.yaml", "file is named for 'echo'"))
                .anySatisfy(message -> assertThat(message).contains("foxtrot.yaml", "unknown key 'conditoin'"))
                .anySatisfy(message -> assertThat(message).contains("golf.yaml", "not valid YAML or JSON"));
    }

    @Test
    void shouldPickUpAReplacementWithoutARestartThroughTheWatcher() throws IOException {
        RulesetRegistry registry = new RulesetRegistry(directory);
        PolicyEngine engine = new PolicyEngine(registry, new SimpleMeterRegistry());
        RulesetWatcher watcher = new RulesetWatcher(registry, Duration.ofMillis(50));
        watcher.start();
        try {
            assertThat(engine.allows(CASEWORKER, Action.UPDATE, SOMEONE_ELSES_PLACEMENT)).isFalse();

            write("georgia.yaml", permissive("georgia", "2.0.0"));

            await().atMost(Duration.ofSeconds(10)).alias("the watcher to serve georgia 2.0.0")
                    .until(() -> engine.allows(CASEWORKER, Action.UPDATE, SOMEONE_ELSES_PLACEMENT));
            assertThat(registry.versions()).containsEntry("georgia", "2.0.0");
        } finally {
            watcher.stop();
        }
    }

    @Test
    void shouldServeAnArchivedVersionAfterARestartOnlyIfItStillPassesVetting() throws IOException {
        write("georgia.yaml", "rules: [");
        Map<String, RulesetArchive.Accepted> kept = new HashMap<>();
        RulesetArchive archive = new RulesetArchive() {
            @Override
            public void save(Accepted accepted) {
                kept.put(accepted.jurisdiction(), accepted);
            }

            @Override
            public Optional<Accepted> find(String jurisdiction) {
                return Optional.ofNullable(kept.get(jurisdiction));
            }

            @Override
            public void remove(String jurisdiction) {
                kept.remove(jurisdiction);
            }
        };
        archive.save(new RulesetArchive.Accepted("georgia", "2.0.0", "earlier", permissive("georgia", "2.0.0"),
                Instant.now()));
        assertThat(new RulesetRegistry(directory, RulesetCompiler.service(), archive).versions())
                .containsEntry("georgia", "2.0.0");

        archive.save(new RulesetArchive.Accepted("georgia", "2.1.0", "earlier", permissive("georgia", "2.1.0")
                .replace("condition: \"true\"", "condition: \"resource.attrs.capacity > 0\""), Instant.now()));
        RulesetRegistry restarted = new RulesetRegistry(directory, RulesetCompiler.service(), archive);

        assertThat(restarted.versions()).doesNotContainKey("georgia");
        assertThat(logged.list).extracting(ILoggingEvent::getFormattedMessage)
                .anySatisfy(message -> assertThat(message).contains("no longer passes vetting", "resource.attrs.capacity"));
    }

    /** A ruleset letting every caller do everything to case-scoped records. */
    static String permissive(String jurisdiction, String version) {
        return """
                jurisdiction: %s
                version: "%s"
                rules:
                  - id: everyone-everything
                    resources: [placement, kinship_option]
                    actions: [read, create, update]
                    condition: "true"
                """.formatted(jurisdiction, version);
    }

    /** Writes atomically, as operators are told to: a reader never sees half a file. */
    private void write(String name, String content) throws IOException {
        Path staging = Files.createTempFile(directory.getParent(), "ruleset-", ".tmp");
        Files.writeString(staging, content);
        Files.move(staging, directory.resolve(name), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
