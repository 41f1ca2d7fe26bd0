package org.caseassignments.api.assignment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.caseassignments.api.security.Caller;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;

/**
 * The hand-off of a waited read from {@link WaitedReadFilter} to the handler ({@link WaitedReads#handOn},
 * {@link WaitedReads#begunOrBegin}, {@link WaitedReads#releaseNotTakenOver}): the admitted wait's place is given back
 * exactly once, by whoever holds it last. The waits begun here count their releases; what was handed on is taken over
 * without reading the case, so {@link WaitedReads} is built without its collaborators: a path that read the case would
 * fail here.
 */
class WaitedReadHandOnTests {

    private static final UUID CASE_ID = UUID.fromString("6f1c2a4e-0d5b-4c1e-9a3f-1b2c3d4e5f60");
    private static final long WANTED = 7;
    private static final Duration PATIENCE = Duration.ofSeconds(5);
    private static final Caller CALLER = new Caller("cw-1", List.of("caseworker"), "georgia", List.of());

    private final WaitedReads waitedReads = new WaitedReads(null, null, null);
    private final MockHttpServletRequest request = new MockHttpServletRequest("GET", "/cases/" + CASE_ID + "/assignment");
    private final AtomicInteger releases = new AtomicInteger();

    @Test
    void shouldReleaseTheWaitExactlyOnceWhenTheHandlerNeverTookItOver() {
        // Given a waited read begun and handed on to a handler that never took it over
        WaitedReads.handOn(request, begunWithAWait());

        // When the filter gives back what was not taken over, twice
        WaitedReads.releaseNotTakenOver(request);
        WaitedReads.releaseNotTakenOver(request);

        // Then the wait's place was given back once
        assertThat(releases).hasValue(1);
    }

    @Test
    void shouldReleaseAndRefuseWhenTheHandlersCaseIsNotTheOneBegun() {
        // Given a waited read handed on, When the handler asks for another case, Then (see below)
        assertReleasedOnceAndRefused(UUID.fromString("00000000-0000-4000-8000-000000000001"), WANTED, PATIENCE);
    }

    @Test
    void shouldReleaseAndRefuseWhenTheHandlersRevisionIsNotTheOneBegun() {
        // Given a waited read handed on, When the handler asks for another revision, Then (see below)
        assertReleasedOnceAndRefused(CASE_ID, WANTED + 1, PATIENCE);
    }

    @Test
    void shouldReleaseAndRefuseWhenTheHandlersWaitIsNotTheOneBegun() {
        // Given a waited read handed on, When the handler asks for another wait, Then (see below)
        assertReleasedOnceAndRefused(CASE_ID, WANTED, PATIENCE.plusSeconds(1));
    }

    @Test
    void shouldReleaseNothingWhenTheHandlerTookTheWaitOver() {
        // Given a waited read handed on
        WaitedReads.Begun begun = begunWithAWait();
        WaitedReads.handOn(request, begun);

        // When the handler takes it over, for the same case, revision and wait, and the filter then releases
        WaitedReads.Begun takenOver = waitedReads.begunOrBegin(request, CALLER, CASE_ID, WANTED, PATIENCE);
        WaitedReads.releaseNotTakenOver(request);

        // Then the handler holds the wait begun, whose place the filter did not give back
        assertThat(takenOver).isSameAs(begun);
        assertThat(releases).hasValue(0);
    }

    /**
     * Hands a waited read on and has the handler ask for {@code caseId}, {@code wanted}, {@code patience}, which are not
     * what was begun: it is a defect (IllegalStateException), the wait is given back, and the filter's later release
     * gives back nothing more.
     */
    private void assertReleasedOnceAndRefused(UUID caseId, long wanted, Duration patience) {
        WaitedReads.handOn(request, begunWithAWait());

        assertThatIllegalStateException()
                .isThrownBy(() -> waitedReads.begunOrBegin(request, CALLER, caseId, wanted, patience));
        assertThat(releases).as("released by the refusal").hasValue(1);

        WaitedReads.releaseNotTakenOver(request);
        assertThat(releases).as("released again by the filter").hasValue(1);
    }

    /** A waited read begun behind its revision, admitted to wait; its release counted. */
    private WaitedReads.Begun begunWithAWait() {
        ProjectedAssignment before = new ProjectedAssignment(CASE_ID, AssignmentPair.NONE, WANTED - 1, "georgia");
        ProjectionWaits.Wait admitted = new ProjectionWaits.Wait(new CompletableFuture<Optional<ProjectedAssignment>>(),
                releases::incrementAndGet);
        return new WaitedReads.Begun(CASE_ID, WANTED, PATIENCE, before, admitted);
    }
}
