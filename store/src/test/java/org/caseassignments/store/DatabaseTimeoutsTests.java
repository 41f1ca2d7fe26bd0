package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The pool's timeouts are durations in the one syntax, set on the pool in the unit each part of it counts: the
 * driver's socket timeout in whole seconds, Hikari's wait for a connection in milliseconds. The deprecated numbers
 * still work alone; a duration the driver or the pool would read otherwise than it is written is refused, naming the
 * variable.
 */
class DatabaseTimeoutsTests {

    @Test
    void shouldSetTheSocketTimeoutInWholeSecondsAndThePoolWaitInMillisecondsOnThePool() {
        assertThat(applied(Map.of("case-assignments.database.socket-timeout", "90s", "case-assignments.database.pool-timeout", "2s")))
                .isEqualTo("socketTimeout=90 connectionTimeout=2000");
        assertThat(applied(Map.of("case-assignments.database.socket-timeout", "PT2M", "case-assignments.database.connection-timeout", "1500ms")))
                .isEqualTo("socketTimeout=120 connectionTimeout=1500");
    }

    @Test
    void shouldStillTakeTheDeprecatedNumbersAloneWithAWarning() {
        Map<String, String> deprecated = Map.of("case-assignments.database.socket-timeout-seconds", "45",
                "case-assignments.database.connection-timeout-ms", "3000");

        assertThat(applied(deprecated)).isEqualTo("socketTimeout=45 connectionTimeout=3000");
        assertThat(bind(deprecated).warnings()).anySatisfy(w -> assertThat(w).contains(
                "DATABASE_SOCKET_TIMEOUT_SECONDS is deprecated", "DATABASE_SOCKET_TIMEOUT=45s"))
                .anySatisfy(w -> assertThat(w).contains("DATABASE_CONNECTION_TIMEOUT_MS is deprecated",
                        "DATABASE_CONNECTION_TIMEOUT=3s"));
    }

    @Test
    void shouldLeaveThePoolsDefaultsWhenTheApplicationYmlHandsOverEveryVariableUnset() {
        assertThat(applied(Map.of("case-assignments.database.socket-timeout", "", "case-assignments.database.socket-timeout-seconds", "",
                "case-assignments.database.pool-timeout", "", "case-assignments.database.pool-timeout-ms", "")))
                .isEqualTo("socketTimeout=120 connectionTimeout=5000");
    }

    @Test
    void shouldRefuseANameAndItsDeprecatedNumberSetToDifferentDurationsNamingBothButStartWhenTheyAgree() {
        assertRefused(Map.of("case-assignments.database.socket-timeout", "30s", "case-assignments.database.socket-timeout-seconds", "60"),
                "DATABASE_SOCKET_TIMEOUT (30s)", "DATABASE_SOCKET_TIMEOUT_SECONDS (60)");
        assertRefused(Map.of("case-assignments.database.pool-timeout", "2s", "case-assignments.database.pool-timeout-ms", "5000"),
                "DATABASE_POOL_TIMEOUT (2s)", "DATABASE_POOL_TIMEOUT_MS (5000)");

        Map<String, String> agreeing = Map.of("case-assignments.database.pool-timeout", "2s", "case-assignments.database.pool-timeout-ms", "2000");
        assertThat(applied(agreeing)).isEqualTo("socketTimeout=120 connectionTimeout=2000");
        assertThat(bind(agreeing).warnings()).singleElement().asString().contains("DATABASE_POOL_TIMEOUT_MS is deprecated",
                "both are set, to the same duration");
    }

    @Test
    void shouldRefuseASocketTimeoutThatIsNotAWholeNumberOfSecondsRatherThanCutIt() {
        assertRefused(Map.of("case-assignments.database.socket-timeout", "1500ms"), "DATABASE_SOCKET_TIMEOUT is 1500ms", "1s or 2s");
        assertRefused(Map.of("case-assignments.database.socket-timeout", "500ms"), "DATABASE_SOCKET_TIMEOUT is 500ms", "0s or 1s");
    }

    @Test
    void shouldRefuseABareNumberANegativeDurationAndMoreThanTheDriverAndThePoolCanCount() {
        assertRefused(Map.of("case-assignments.database.socket-timeout", "120"), "DATABASE_SOCKET_TIMEOUT is a bare number", "120s");
        assertRefused(Map.of("case-assignments.database.pool-timeout", "-1s"), "DATABASE_POOL_TIMEOUT must not be negative");
        assertRefused(Map.of("case-assignments.database.socket-timeout-seconds", "-5"), "DATABASE_SOCKET_TIMEOUT must not be negative");
        assertRefused(Map.of("case-assignments.database.socket-timeout", "25d"), "DATABASE_SOCKET_TIMEOUT is 2160000s", "24d");
        assertRefused(Map.of("case-assignments.database.socket-timeout-seconds", "2147484"), "DATABASE_SOCKET_TIMEOUT is 2147484s");
        assertRefused(Map.of("case-assignments.database.connection-timeout-ms", Long.toString(Long.MAX_VALUE)),
                "DATABASE_CONNECTION_TIMEOUT is", "24d");
        assertRefused(Map.of("case-assignments.database.socket-timeout", "9999999999999999999d"), "DATABASE_SOCKET_TIMEOUT is not a duration");
        assertRefused(Map.of("case-assignments.database.socket-timeout", "soon"), "DATABASE_SOCKET_TIMEOUT is not a duration");
    }

    @Test
    void shouldRefuseAPoolWaitUnderThePoolsFloorOrOfNoTimeWhichThePoolWouldReadAsThirtySecondsOrForEver() {
        assertRefused(Map.of("case-assignments.database.pool-timeout", "100ms"), "DATABASE_POOL_TIMEOUT is 100ms", "250ms or more");
        assertRefused(Map.of("case-assignments.database.connection-timeout", "0s"), "DATABASE_CONNECTION_TIMEOUT is 0s", "250ms or more");
        assertRefused(Map.of("case-assignments.database.pool-timeout-ms", "0"), "DATABASE_POOL_TIMEOUT is 0s");
        assertThat(applied(Map.of("case-assignments.database.pool-timeout", "250ms"))).endsWith("connectionTimeout=250");
    }

    @Test
    void shouldWarnThatASocketTimeoutOfNoTimeWaitsForEver() {
        Map<String, String> forEver = Map.of("case-assignments.database.socket-timeout", "0s");

        assertThat(applied(forEver)).startsWith("socketTimeout=0 ");
        assertThat(bind(forEver).warnings()).singleElement().asString().contains("DATABASE_SOCKET_TIMEOUT is 0", "for ever");
    }

    /** The pool as Spring Boot hands it over (the defaults of the projector's and the API's application.yml), after. */
    private static String applied(Map<String, String> settings) {
        try (HikariDataSource pool = new HikariDataSource()) {
            pool.addDataSourceProperty("socketTimeout", "120");
            pool.setConnectionTimeout(5000);
            bind(settings).applyTo(pool);
            return "socketTimeout=" + pool.getDataSourceProperties().get("socketTimeout")
                    + " connectionTimeout=" + pool.getConnectionTimeout();
        }
    }

    private static void assertRefused(Map<String, String> settings, String... message) {
        assertThatThrownBy(() -> bind(settings)).as(settings.toString()).isInstanceOf(BindException.class)
                .rootCause().hasMessageContainingAll(message);
    }

    private static DatabaseTimeouts bind(Map<String, String> settings) {
        return new Binder(new MapConfigurationPropertySource(settings)).bindOrCreate(DatabaseTimeouts.PREFIX, DatabaseTimeouts.class);
    }
}
