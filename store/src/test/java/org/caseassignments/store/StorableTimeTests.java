package org.caseassignments.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;

import org.junit.jupiter.api.Test;

class StorableTimeTests {

    @Test
    void shouldAcceptPostgresqlsFirstAndLastInstantAndRefuseTheInstantsJustOutside() {
        assertThat(StorableTime.problem("occurred_at", StorableTime.FIRST)).isNull();
        assertThat(StorableTime.problem("occurred_at", StorableTime.LAST)).isNull();
        assertThat(StorableTime.problem("occurred_at", null)).isNull();

        assertThat(StorableTime.problem("occurred_at", StorableTime.FIRST.minusNanos(1)))
                .startsWith("occurred_at -4713-11-23T23:59:59.999999999Z is outside what PostgreSQL stores");
        assertThat(StorableTime.problem("occurred_at", StorableTime.LAST.plusNanos(1000))).isNotNull();
        assertThat(StorableTime.problem("occurred_at", Instant.ofEpochMilli(Long.MAX_VALUE))).isNotNull();
    }

    @Test
    void shouldWriteEveryStorableInstantAsTextPostgresqlReads() {
        assertThat(StorableTime.text(StorableTime.FIRST)).isEqualTo("4714-11-24 00:00:00.000000Z BC");
        assertThat(StorableTime.text(StorableTime.LAST)).isEqualTo("294276-12-31 23:59:59.999999Z AD");
        assertThat(StorableTime.text(Instant.parse("0000-06-01T00:00:00Z"))).isEqualTo("0001-06-01 00:00:00.000000Z BC");
        assertThat(StorableTime.text(Instant.parse("2026-12-02T03:00:00.123Z"))).isEqualTo("2026-12-02T03:00:00.123Z");
        assertThat(StorableTime.text(null)).isNull();
    }
}
