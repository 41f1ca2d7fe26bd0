package org.caseassignments.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local stack's embedded PostgreSQL, as {@code ./run} starts it, and what the banner says of it. */
class LocalDatabaseIntegrationTests {

    @Test
    void shouldSayInTheBannerThatTheEmbeddedServerRunsWithFsyncOffAndWhatACrashLoses(@TempDir Path dataDir)
            throws Exception {
        // Given the local stack's database, started as the stack starts it
        String warning;
        try (LocalDatabase database = LocalDatabase.start(dataDir, freePort())) {
            warning = database.durabilityWarning();
        }

        // When the banner is printed
        String banner = banner(warning);

        // Then it has the line, saying what is traded and what a crash loses
        assertThat(warning).as("the embedded server's fsync").isNotNull();
        assertThat(banner).contains(" Durability   fsync is off in this local PostgreSQL (fast, for local use only)")
                .contains("a crash of this machine can lose rows it acknowledged");
    }

    @Test
    void shouldPrintNoDurabilityLineForADatabaseThatKeepsFsyncOn() {
        assertThat(banner(null)).doesNotContain("Durability").contains("Sample case");
    }

    private static String banner(String durabilityWarning) {
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        new Banner(new PrintStream(printed, true, StandardCharsets.UTF_8), "http://localhost:1", "http://localhost:2",
                Path.of("tokens.env"), Map.of("GEORGIA_CASEWORKER_TOKEN", "token"), Path.of("data"), false,
                durabilityWarning, null, null, Path.of("jobs.env")).print(Duration.ofSeconds(1));
        return printed.toString(StandardCharsets.UTF_8);
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
