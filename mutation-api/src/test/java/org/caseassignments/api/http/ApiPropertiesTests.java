package org.caseassignments.api.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.util.unit.DataSize;

class ApiPropertiesTests {

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"short", "31-bytes-is-one-byte-too-short!"})
    void shouldRefuseToStartWithoutAnETagSecretOfAtLeast32Bytes(String secret) {
        assertThatThrownBy(() -> new ApiProperties(DataSize.ofKilobytes(64), secret))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("API_ETAG_SECRET")
                .hasMessageNotContaining("31-bytes");
    }

    @Test
    void shouldAcceptA32ByteSecretAndNeverPrintIt() {
        String secret = "exactly-32-bytes-of-etag-secret!";
        ApiProperties properties = new ApiProperties(DataSize.ofKilobytes(64), secret);

        assertThat(secret).hasSize(32);
        assertThat(properties.toString()).doesNotContain(secret).contains("32 bytes");
    }
}
