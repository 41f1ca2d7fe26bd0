package org.caseassignments.store;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A batch reduced by {@link BatchReduction}'s rule to one update per case, sorted by case id in PostgreSQL's order
 * ({@link CaseIds#POSTGRES_ORDER}, the order every writer locks projection rows in): what {@link BatchWriter} and
 * {@link AssignmentWriter#apply(ReducedBatch)} take. Only the reduction makes one — {@link BatchReduction#reduce} over
 * a list, {@link BatchReduction.NewestPerCase#batch} over the projector's table — so a batch is reduced once and its
 * writers never reduce it again. With each kept item it holds the items of its case the rule set aside (they go into
 * the history, decision 32, and are written one by one when PostgreSQL refuses their case, decision 48) and the
 * conflicts {@link BatchReduction#reduce} met, which the writer reports (decision 35; the projector's table reports
 * its own as each event arrives and carries none).
 *
 * @param <T> what the caller keeps per item (the record an event came in), handed back with a refusal; never read here
 */
public final class ReducedBatch<T> {

    /**
     * One item of the batch, with the update it is written as (the rule may have given it the jurisdiction of an item
     * it replaced, decision 26) and when its event happened upstream (null when unknown).
     */
    public record Entry<T>(T item, AssignmentUpdate update, Instant occurredAt) {
    }

    private final List<Entry<T>> kept;
    /**
     * The kept items in the order the reduction gave them, the order refusals are handed back in: the order their cases
     * first came for {@link BatchReduction#reduce}, the order of its slots (no order of arrival) for
     * {@link BatchReduction.NewestPerCase#batch}.
     */
    private final List<Entry<T>> asTheyCame;
    private final Map<UUID, List<Entry<T>>> setAside;
    private final List<AssignmentUpdate> conflicts;
    private final int events;

    private ReducedBatch(List<Entry<T>> asTheyCame, Map<UUID, List<Entry<T>>> setAside,
                         List<AssignmentUpdate> conflicts, int events) {
        List<Entry<T>> sorted = new ArrayList<>(asTheyCame);
        sorted.sort(Comparator.comparing(entry -> entry.update().caseId(), CaseIds.POSTGRES_ORDER));
        this.kept = List.copyOf(sorted);
        this.asTheyCame = asTheyCame;
        this.setAside = setAside;
        this.conflicts = conflicts;
        this.events = events;
    }

    /**
     * Made by the reduction alone ({@link BatchReduction}).
     *
     * @param kept      one item per case, in the order the cases came
     * @param setAside  the items the rule dropped that stay history, in the order they came
     * @param conflicts the items dropped at their case's revision with another assignment
     * @param events    how many events the batch stands for
     */
    static <T> ReducedBatch<T> reduced(List<Entry<T>> kept, List<Entry<T>> setAside, List<AssignmentUpdate> conflicts,
                                       int events) {
        Map<UUID, List<Entry<T>>> byCase = new HashMap<>();
        setAside.forEach(entry -> byCase.computeIfAbsent(entry.update().caseId(), c -> new ArrayList<>()).add(entry));
        return new ReducedBatch<>(List.copyOf(kept), byCase, List.copyOf(conflicts), events);
    }

    /** One update per case, sorted by case id in PostgreSQL's order. */
    public List<Entry<T>> kept() {
        return kept;
    }

    /** The kept updates, in the batch's order. */
    public List<AssignmentUpdate> updates() {
        List<AssignmentUpdate> updates = new ArrayList<>(kept.size());
        kept.forEach(entry -> updates.add(entry.update()));
        return updates;
    }

    /** How many events the batch stands for: its kept items and those the rule set aside or dropped. */
    public int events() {
        return events;
    }

    public boolean isEmpty() {
        return kept.isEmpty();
    }

    /**
     * What the history records for this batch: every item set aside for a kept case, in the order they came, then the
     * kept items. The history keeps the first payload given at a revision, and an item set aside at its kept item's
     * revision came before it (the snapshot's converging rule), so each revision's entry is the first that came.
     */
    public List<SeenRevision> history() {
        List<SeenRevision> seen = new ArrayList<>(kept.size());
        if (!setAside.isEmpty()) {
            for (Entry<T> entry : kept) {
                setAside.getOrDefault(entry.update().caseId(), List.of())
                        .forEach(earlier -> seen.add(new SeenRevision(earlier.update(), earlier.occurredAt())));
            }
        }
        kept.forEach(entry -> seen.add(new SeenRevision(entry.update(), entry.occurredAt())));
        return seen;
    }

    /** The items of {@code caseId} the rule set aside, in the order they came. */
    List<Entry<T>> setAsideOf(UUID caseId) {
        return setAside.getOrDefault(caseId, List.of());
    }

    boolean hasSetAside() {
        return !setAside.isEmpty();
    }

    /**
     * The updates the rule dropped at their case's kept revision with another assignment: an upstream contract
     * violation, which the writer reports ({@code stage=batch}); none in the projector's batch, whose table reports
     * each as it arrives ({@link BatchReduction.NewestPerCase#add}).
     */
    public List<AssignmentUpdate> conflicts() {
        return conflicts;
    }

    /** Consecutive kept items of this batch (still one per case, still sorted), with what was set aside for them. */
    ReducedBatch<T> part(List<Entry<T>> part) {
        Map<UUID, List<Entry<T>>> theirs = new HashMap<>();
        if (!setAside.isEmpty()) {
            part.forEach(entry -> {
                List<Entry<T>> own = setAside.get(entry.update().caseId());
                if (own != null) {
                    theirs.put(entry.update().caseId(), own);
                }
            });
        }
        return new ReducedBatch<>(part, theirs, List.of(), part.size());
    }

    /** One item alone: a batch of one case, nothing set aside. */
    static <T> ReducedBatch<T> alone(Entry<T> entry) {
        return new ReducedBatch<>(List.of(entry), Map.of(), List.of(), 1);
    }

    /** The kept items in the order the reduction gave them ({@link #asTheyCame}). */
    List<Entry<T>> keptAsTheyCame() {
        return asTheyCame;
    }
}
