package org.caseassignments.store;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

import com.zaxxer.hikari.HikariDataSource;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The two timeouts an operator sets on a deployable's pool, in the one duration syntax ({@code 30s}, {@code 500ms},
 * {@code PT30S}), each replacing a number whose variable said its unit ({@link RenamedDuration}): how long a statement
 * waits for PostgreSQL's answer ({@code DATABASE_SOCKET_TIMEOUT}, the driver's {@code socketTimeout}, which counts
 * whole seconds) and how long one waits for a connection from the pool (the projector's
 * {@code DATABASE_CONNECTION_TIMEOUT}, the mutation API's {@code DATABASE_POOL_TIMEOUT}: Hikari's
 * {@code connection-timeout}, in milliseconds). Each application.yml maps its own variables here, under
 * {@value #PREFIX}, bound from the deployable's own property sources only ({@link #boundFrom}), so no environment
 * variable reaches it by Spring Boot's relaxed binding: a deployable never reads another's variables from a ConfigMap
 * they share. It keeps its own defaults on the pool's properties; a timeout set
 * here replaces the default on the pool before it opens a connection.
 *
 * <p>Refused at startup, naming the variable: a duration the driver or the pool would read otherwise than it is
 * written. A socket timeout that is not a whole number of seconds (the driver would cut {@code 1500ms} to 1 s and
 * {@code 500ms} to 0, which waits for ever); a pool wait under Hikari's floor of 250 ms (Hikari's setter throws
 * for 1 to 249 ms, a start failing without naming the variable) or of no time (Hikari would wait for ever); and either over {@link #LONGEST}, since both count in an
 * {@code int} of milliseconds. A socket timeout of {@code 0s} still means "wait for ever", with a warning.
 *
 * @param socketTimeout        {@code DATABASE_SOCKET_TIMEOUT}
 * @param socketTimeoutSeconds deprecated {@code DATABASE_SOCKET_TIMEOUT_SECONDS}
 * @param connectionTimeout    the projector's {@code DATABASE_CONNECTION_TIMEOUT}
 * @param connectionTimeoutMs  its deprecated {@code DATABASE_CONNECTION_TIMEOUT_MS}
 * @param poolTimeout          the mutation API's {@code DATABASE_POOL_TIMEOUT}
 * @param poolTimeoutMs        its deprecated {@code DATABASE_POOL_TIMEOUT_MS}
 */
@ConfigurationProperties(DatabaseTimeouts.PREFIX)
public record DatabaseTimeouts(String socketTimeout, @Deprecated Long socketTimeoutSeconds,
                               String connectionTimeout, @Deprecated Long connectionTimeoutMs,
                               String poolTimeout, @Deprecated Long poolTimeoutMs) {

    /** Where each application.yml maps its variables: no environment variable's name maps onto it. */
    static final String PREFIX = "case-assignments.database";
    /** The longest either timeout may be: the driver (seconds × 1000) and Hikari count in an int of milliseconds. */
    static final Duration LONGEST = Duration.ofDays(24);
    /** Hikari's floor: its setter refuses a shorter connection-timeout but 0, which it reads as for ever. */
    static final Duration SHORTEST_POOL_WAIT = Duration.ofMillis(250);

    public DatabaseTimeouts {
        Duration socket = socket(socketTimeout, socketTimeoutSeconds).duration();
        if (socket != null) {
            if (socket.getNano() != 0) {
                throw new IllegalArgumentException("DATABASE_SOCKET_TIMEOUT is " + RenamedDuration.written(socket)
                        + ", but PostgreSQL's driver counts it in whole seconds: write " + socket.getSeconds() + "s or "
                        + (socket.getSeconds() + 1) + "s");
            }
            atMostTheLongest("DATABASE_SOCKET_TIMEOUT", socket);
        }
        poolWait("DATABASE_CONNECTION_TIMEOUT", connection(connectionTimeout, connectionTimeoutMs).duration());
        poolWait("DATABASE_POOL_TIMEOUT", pool(poolTimeout, poolTimeoutMs).duration());
    }

    /**
     * The timeouts as the deployable's own property sources map them: every source of {@code environment} but the
     * process's environment variables, so relaxed binding cannot map a variable ({@code CASE_ASSIGNMENTS_DATABASE_*},
     * {@code CASEASSIGNMENTS_DATABASE_*}) onto {@value #PREFIX}; the placeholders an application.yml writes there
     * ({@code ${DATABASE_POOL_TIMEOUT:}}) are still resolved against the whole environment, variables included.
     */
    static DatabaseTimeouts boundFrom(ConfigurableEnvironment environment) {
        List<PropertySource<?>> own = environment.getPropertySources().stream()
                .filter(source -> !(source instanceof SystemEnvironmentPropertySource))
                .toList();
        return new Binder(ConfigurationPropertySources.from(own), new PropertySourcesPlaceholdersResolver(environment))
                .bindOrCreate(PREFIX, DatabaseTimeouts.class);
    }

    /** Sets the timeouts given here on {@code pool}, which has not opened a connection yet, over its defaults. */
    public void applyTo(HikariDataSource pool) {
        Duration socket = socket(socketTimeout, socketTimeoutSeconds).duration();
        if (socket != null) {
            pool.addDataSourceProperty("socketTimeout", Long.toString(socket.getSeconds()));
        }
        Duration connection = connection(connectionTimeout, connectionTimeoutMs).duration();
        // each application.yml maps one of the two, the variable of its deployable
        Duration wait = connection != null ? connection : pool(poolTimeout, poolTimeoutMs).duration();
        if (wait != null) {
            pool.setConnectionTimeout(wait.toMillis());
        }
        warnings().forEach(LoggerFactory.getLogger(DatabaseTimeouts.class)::warn);
    }

    /** What an operator should change, though the deployable starts: a deprecated name, a socket timeout of no time. */
    public List<String> warnings() {
        List<String> warnings = new ArrayList<>(socket(socketTimeout, socketTimeoutSeconds).warnings("a statement waits "
                + "for PostgreSQL's answer for ever, and a half-open socket holds its thread and its connection until the "
                + "process restarts"));
        // a pool wait of no time is refused, so it has nothing to say at 0
        warnings.addAll(connection(connectionTimeout, connectionTimeoutMs).warnings(null));
        warnings.addAll(pool(poolTimeout, poolTimeoutMs).warnings(null));
        return warnings;
    }

    private static RenamedDuration socket(String value, Long seconds) {
        return new RenamedDuration("DATABASE_SOCKET_TIMEOUT", value, "DATABASE_SOCKET_TIMEOUT_SECONDS", seconds,
                ChronoUnit.SECONDS);
    }

    private static RenamedDuration connection(String value, Long millis) {
        return new RenamedDuration("DATABASE_CONNECTION_TIMEOUT", value, "DATABASE_CONNECTION_TIMEOUT_MS", millis,
                ChronoUnit.MILLIS);
    }

    private static RenamedDuration pool(String value, Long millis) {
        return new RenamedDuration("DATABASE_POOL_TIMEOUT", value, "DATABASE_POOL_TIMEOUT_MS", millis, ChronoUnit.MILLIS);
    }

    private static void poolWait(String variable, Duration wait) {
        if (wait != null && wait.compareTo(SHORTEST_POOL_WAIT) < 0) {
            throw new IllegalArgumentException(variable + " is " + RenamedDuration.written(wait) + ", under the pool's "
                    + "floor of 250ms (the pool refuses less, and waits for ever at 0): write 250ms or more");
        }
        atMostTheLongest(variable, wait);
    }

    private static void atMostTheLongest(String variable, Duration timeout) {
        if (timeout != null && timeout.compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException(variable + " is " + RenamedDuration.written(timeout) + ", over the "
                    + "longest the driver and the pool can count, 24d (an int of milliseconds)");
        }
    }
}
