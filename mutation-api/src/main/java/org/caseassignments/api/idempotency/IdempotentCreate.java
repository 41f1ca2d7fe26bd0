package org.caseassignments.api.idempotency;

import java.util.Optional;
import java.util.function.Supplier;

import org.springframework.http.ResponseEntity;

/**
 * One create as its {@code Idempotency-Key} shapes it: a {@link #replay()} of the recorded answer, or a
 * create that {@link #claim() claims} the key first and {@link #record records} its answer last, both
 * in the create's transaction. Without a key every step is a no-op.
 */
public final class IdempotentCreate<T> {

    private final Idempotency idempotency;
    private final Scope scope;
    private final byte[] fingerprint;
    private final ResponseEntity<T> replay;

    private IdempotentCreate(Idempotency idempotency, Scope scope, byte[] fingerprint,
                             ResponseEntity<T> replay) {
        this.idempotency = idempotency;
        this.scope = scope;
        this.fingerprint = fingerprint;
        this.replay = replay;
    }

    static <T> IdempotentCreate<T> without() {
        return new IdempotentCreate<>(null, null, null, null);
    }

    static <T> IdempotentCreate<T> with(Idempotency idempotency, Scope scope, byte[] fingerprint) {
        return new IdempotentCreate<>(idempotency, scope, fingerprint, null);
    }

    static <T> IdempotentCreate<T> replaying(ResponseEntity<T> replay) {
        return new IdempotentCreate<>(null, null, null, replay);
    }

    /** The recorded answer of an earlier request with this key, authorized for the caller; answer it as it is. */
    public Optional<ResponseEntity<T>> replay() {
        return Optional.ofNullable(replay);
    }

    /** The first statement of the create's transaction; 409 {@code IDEMPOTENCY_KEY_IN_USE} when the key is taken. */
    public void claim() {
        if (scope != null) {
            idempotency.claim(scope, fingerprint);
        }
    }

    /** The last step of the create's transaction: keeps the answer for a retry. */
    public ResponseEntity<T> record(ResponseEntity<T> response) {
        if (scope != null) {
            idempotency.record(scope, response);
        }
        return response;
    }

    /**
     * A create that is one statement: in a transaction with the claim and the record when there is a key
     * (joining the caller's, if one is active), in the caller's transaction or on its own otherwise.
     */
    public ResponseEntity<T> run(Supplier<ResponseEntity<T>> create) {
        if (replay != null) {
            return replay;
        }
        if (scope == null) {
            return create.get();
        }
        return idempotency.inTransaction(() -> {
            claim();
            return record(create.get());
        });
    }
}
