package org.caseassignments.api.idempotency;

import java.util.function.Function;
import java.util.function.Supplier;

import org.caseassignments.api.idempotency.Idempotency.Repeat;
import org.caseassignments.api.idempotency.IdempotencyKeys.Recorded;
import org.caseassignments.store.jdbc.OneRoundTrip;
import org.springframework.http.ResponseEntity;

/**
 * One create as its {@code Idempotency-Key} shapes it: the create {@link #claim() claims} the key first
 * and {@link #record records} its answer last, both in the create's transaction, and {@link #answer}
 * turns a repeat of an answered request into the replay of that answer. Without a key every step is a
 * no-op.
 */
public final class IdempotentCreate<T> {

    private final Idempotency idempotency;
    private final Scope scope;
    private final byte[] fingerprint;
    private final Function<Recorded, ResponseEntity<T>> replay;

    IdempotentCreate(Idempotency idempotency, Scope scope, byte[] fingerprint,
                     Function<Recorded, ResponseEntity<T>> replay) {
        this.idempotency = idempotency;
        this.scope = scope;
        this.fingerprint = fingerprint;
        this.replay = replay;
    }

    static <T> IdempotentCreate<T> without() {
        return new IdempotentCreate<>(null, null, null, null);
    }

    /** The first statement of the create's transaction; 409 {@code IDEMPOTENCY_KEY_IN_USE} when the key is in flight. */
    public void claim() {
        if (scope != null) {
            idempotency.claim(scope);
        }
    }

    /**
     * {@link #claim()} as the first query of the round trip of the transaction's first statement
     * ({@link OneRoundTrip}); its outcome is thrown from there. Null without a key.
     */
    public OneRoundTrip.PairedStatement claimFirst() {
        return scope == null ? null : idempotency.claimFirst(scope);
    }

    /**
     * The last statement of the create's transaction, which keeps the answer for a retry: sent along with the
     * create's audit record ({@link OneRoundTrip}). Null without a key.
     */
    public OneRoundTrip.PairedStatement record(ResponseEntity<T> response) {
        return scope == null ? null : idempotency.record(scope, fingerprint, response);
    }

    /**
     * Runs a create whose transaction {@link #claim claims} and {@link #record records}; when the key
     * turns out to be answered already, the create has rolled back and the recorded answer is replayed.
     */
    public ResponseEntity<T> answer(Supplier<ResponseEntity<T>> create) {
        try {
            return create.get();
        } catch (Repeat repeat) {
            return idempotency.repeated(scope, fingerprint, repeat, replay);
        }
    }
}
