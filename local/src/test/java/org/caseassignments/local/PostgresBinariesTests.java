package org.caseassignments.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;

import io.zonky.test.db.postgres.embedded.DefaultPostgresBinaryResolver;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code ./run} starts PostgreSQL from the binaries on its classpath, chosen by os.name and os.arch: the
 * platforms the README names each have theirs (only Linux amd64 is run here).
 */
class PostgresBinariesTests {

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"Linux, x86_64", "Linux, arm_64", "Darwin, x86_64", "Darwin, arm_64"})
    void shouldCarryPostgreSqlForEverySupportedPlatform(String system, String architecture) throws IOException {
        try (InputStream binaries = DefaultPostgresBinaryResolver.INSTANCE.getPgBinary(system, architecture)) {
            assertThat(binaries).isNotNull();
            assertThat(binaries.read()).isNotNegative();
        }
    }
}
