package org.caseassignments.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.caseassignments.api.http.ApiProperties;
import org.caseassignments.api.http.EntityTags;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.unit.DataSize;

class EtagSecretTests {

    @Test
    void shouldGenerateASecretTheMutationApiAccepts(@TempDir Path dataDir) throws Exception {
        String secret = EtagSecret.loadOrCreate(dataDir);

        assertThat(secret.getBytes(StandardCharsets.UTF_8).length).isGreaterThanOrEqualTo(EntityTags.MIN_SECRET_BYTES);
        assertThat(new ApiProperties(DataSize.ofKilobytes(64), secret)).isNotNull();
    }

    @Test
    void shouldKeepTheSecretAcrossRestartsOfTheSameDataFolderOnly(@TempDir Path one, @TempDir Path other) throws Exception {
        String first = EtagSecret.loadOrCreate(one);

        assertThat(EtagSecret.loadOrCreate(one)).isEqualTo(first);
        assertThat(EtagSecret.loadOrCreate(other)).isNotEqualTo(first);
    }
}
