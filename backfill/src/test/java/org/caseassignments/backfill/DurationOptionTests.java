package org.caseassignments.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class DurationOptionTests {

    final DurationOption option = new DurationOption();

    @Test
    void shouldReadADurationWithItsUnitOrInIsoForm() {
        assertThat(option.convert("1s")).isEqualTo(Duration.ofSeconds(1));
        assertThat(option.convert(" 500ms ")).isEqualTo(Duration.ofMillis(500));
        assertThat(option.convert("PT2S")).isEqualTo(Duration.ofSeconds(2));
    }

    @Test
    void shouldRefuseABareNumberSoThreeThousandSixHundredFiftyIsNeverMilliseconds() {
        assertThatThrownBy(() -> option.convert("3650")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'3650' has no unit").hasMessageContaining("3650d");
        assertThatThrownBy(() -> option.convert(" 5000 ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'5000' has no unit");
    }

    @Test
    void shouldRefuseWhatIsNoDurationNamingIt() {
        assertThatThrownBy(() -> option.convert("5000 events")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("5000 events");
    }
}
