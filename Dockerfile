# The three deployables' images, one target each, from one build stage:
#   docker build --target projector -t case-assignments-projector .
#   docker build --target mutation-api -t case-assignments-mutation-api .
#   docker build --target backfill -t case-assignments-backfill .
#   (backfill: docker run --rm -e DATABASE_URL=... -v "$PWD:/data" <image> assignments --file /data/snapshot.csv)
# No BuildKit feature is used: the layer cache alone keeps the dependencies between builds.
FROM eclipse-temurin:17-jdk AS build
WORKDIR /src
# The dependency layer: the wrapper and every module's pom first (the reactor reads them all), then everything the
# build needs from Maven Central. A change to the sources or the docs reuses this layer and downloads nothing again.
COPY mvnw pom.xml ./
COPY .mvn .mvn
COPY schemas/pom.xml schemas/
COPY store/pom.xml store/
COPY testkit/pom.xml testkit/
COPY ingest/pom.xml ingest/
COPY projector/pom.xml projector/
COPY mutation-api/pom.xml mutation-api/
COPY backfill/pom.xml backfill/
COPY local/pom.xml local/
RUN ./mvnw -B -ntp -q -pl projector,mutation-api,backfill -am dependency:go-offline
# The three jars in one build, shared by the three targets below (compose builds it once).
COPY . .
RUN ./mvnw -B -ntp -DskipTests -pl projector,mutation-api,backfill -am package

FROM eclipse-temurin:17-jre AS runtime
RUN useradd --system --uid 10001 --home-dir /app --shell /usr/sbin/nologin app
WORKDIR /app

FROM runtime AS projector
# Kafka Streams keeps its local state here (a cache of the changelog topic: losing it only costs a restore).
RUN mkdir /app/state && chown app /app/state
ENV PROJECTOR_STATE_DIR=/app/state
COPY --from=build /src/projector/target/projector-*-exec.jar /app/projector.jar
USER 10001
# 8081: the probes (/livez, /readyz). 9081: the management port (health details, metrics, Prometheus) for
# operators and scrapers only; never publish it outside the cluster's private network.
EXPOSE 8081 9081
# The readiness probe over bash's /dev/tcp: no HTTP client installed in the image for it alone.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/localhost/8081 && printf 'GET /readyz HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
# SIGTERM from the orchestrator triggers Spring's graceful shutdown.
# Out of memory, the process exits and is restarted whole, rather than going on with a thread replaced.
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-jar", "/app/projector.jar"]

FROM runtime AS mutation-api
COPY --from=build /src/mutation-api/target/mutation-api-*-exec.jar /app/mutation-api.jar
USER 10001
# 8080: the API and its probes (/livez, /readyz). 9080: the management port (health details, info, metrics,
# Prometheus) for operators and scrapers only; never publish it outside the cluster's private network.
EXPOSE 8080 9080
# The readiness probe over bash's /dev/tcp: no HTTP client installed in the image for it alone.
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["bash", "-c", "exec 3<>/dev/tcp/localhost/8080 && printf 'GET /readyz HTTP/1.0\\r\\nHost: localhost\\r\\n\\r\\n' >&3 && head -n 1 <&3 | grep -q ' 200 '"]
# SIGTERM from the orchestrator triggers Spring's graceful shutdown.
# Out of memory, the process exits and is restarted whole, rather than going on with a thread replaced.
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-jar", "/app/mutation-api.jar"]

FROM runtime AS backfill
COPY --from=build /src/backfill/target/backfill-*-exec.jar /app/backfill.jar
USER 10001
# A run-to-completion job serves no endpoint: its exit code (0, 1 rejected rows, 2 could not start) is its health.
HEALTHCHECK NONE
# Out of memory, the process exits and is restarted whole, rather than going on with a thread replaced.
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-XX:+ExitOnOutOfMemoryError", "-jar", "/app/backfill.jar"]
