package org.caseassignments.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import org.caseassignments.schemas.serde.SerdeSettings;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The not-found window is a duration in the one syntax ({@code 10s}, {@code 500ms}, {@code PT10S}); the deprecated
 * millisecond setting still works alone, and the two set to different windows are refused, naming both, rather than
 * one winning; a bare number, whose unit nobody wrote, is refused.
 */
class SchemaRegistryPropertiesTests {

    @Test
    void shouldPassTheNotFoundWindowToTheSerdeInWhateverDurationSyntaxItIsWritten() {
        assertThat(window(Map.of("case-events.registry.not-found-window", "10s"))).isEqualTo("10000");
        assertThat(window(Map.of("case-events.registry.not-found-window", "PT0.5S"))).isEqualTo("500");
        assertThat(window(Map.of("case-events.registry.not-found-window", "1m"))).isEqualTo("60000");
    }

    @Test
    void shouldStillTakeTheDeprecatedMillisecondsAlone() {
        assertThat(window(Map.of("case-events.registry.not-found-window-ms", "2500"))).isEqualTo("2500");
    }

    @Test
    void shouldLeaveTheSerdesOwnSettingWhenNeitherIsGiven() {
        assertThat(bind(Map.of()).serdeConfig(Map.of(SerdeSettings.REGISTRY_NOT_FOUND_WINDOW_MS, "7000")))
                .containsEntry(SerdeSettings.REGISTRY_NOT_FOUND_WINDOW_MS, "7000");
    }

    @Test
    void shouldRefuseTheWindowAndItsDeprecatedMillisecondsTogetherNamingBoth() {
        assertThatThrownBy(() -> bind(Map.of("case-events.registry.not-found-window", "10s",
                "case-events.registry.not-found-window-ms", "500")))
                .isInstanceOf(BindException.class)
                .rootCause().hasMessageContaining("SCHEMA_REGISTRY_NOT_FOUND_WINDOW ")
                .hasMessageContaining("SCHEMA_REGISTRY_NOT_FOUND_WINDOW_MS");
    }

    @Test
    void shouldRefuseANegativeWindow() {
        assertThatThrownBy(() -> bind(Map.of("case-events.registry.not-found-window", "-1s")))
                .isInstanceOf(BindException.class).rootCause().hasMessageContaining("SCHEMA_REGISTRY_NOT_FOUND_WINDOW");
    }

    @Test
    void shouldStartWithAWarningWhenTheWindowAndItsDeprecatedMillisecondsAgree() {
        SchemaRegistryProperties agreeing = bind(Map.of("case-events.registry.not-found-window", "10s",
                "case-events.registry.not-found-window-ms", "10000"));

        assertThat(agreeing.serdeConfig(Map.of())).containsEntry(SerdeSettings.REGISTRY_NOT_FOUND_WINDOW_MS, "10000");
        assertThat(agreeing.warnings()).anySatisfy(warning -> assertThat(warning)
                .contains("SCHEMA_REGISTRY_NOT_FOUND_WINDOW_MS is deprecated"));
    }

    @Test
    void shouldRefuseABareNumberAsTheWindowSayingToWriteItsUnit() {
        assertThatThrownBy(() -> bind(Map.of("case-events.registry.not-found-window", "20")))
                .isInstanceOf(BindException.class).rootCause()
                .hasMessageContaining("SCHEMA_REGISTRY_NOT_FOUND_WINDOW").hasMessageContaining("20s");
    }

    @Test
    void shouldWarnThatAWindowOfNoTimeDeadLettersAtTheFirstNotFound() {
        assertThat(bind(Map.of("case-events.registry.not-found-window", "0s")).warnings())
                .anySatisfy(warning -> assertThat(warning).contains("SCHEMA_REGISTRY_NOT_FOUND_WINDOW is 0"));
    }

    @Test
    void shouldReadTheEmptyStringsTheApplicationYmlSuppliesAsUnset() {
        SchemaRegistryProperties unset = bind(Map.of("case-events.registry.not-found-window", "",
                "case-events.registry.not-found-window-ms", ""));

        assertThat(unset.serdeConfig(Map.of())).doesNotContainKey(SerdeSettings.REGISTRY_NOT_FOUND_WINDOW_MS);
        assertThat(unset.warnings()).isEmpty();
        assertThat(window(Map.of("case-events.registry.not-found-window", "",
                "case-events.registry.not-found-window-ms", "3000"))).isEqualTo("3000");
        assertThat(window(Map.of("case-events.registry.not-found-window", "4s",
                "case-events.registry.not-found-window-ms", ""))).isEqualTo("4000");
    }

    private static Object window(Map<String, String> settings) {
        return bind(settings).serdeConfig(Map.of()).get(SerdeSettings.REGISTRY_NOT_FOUND_WINDOW_MS);
    }

    private static SchemaRegistryProperties bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings))
                .bindOrCreate("case-events.registry", SchemaRegistryProperties.class);
    }
}
