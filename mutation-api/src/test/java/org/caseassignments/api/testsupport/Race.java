package org.caseassignments.api.testsupport;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One forced race: the request is sent while another transaction holds a lock it needs; once
 * PostgreSQL shows it waiting behind that transaction, the transaction commits; then the answer.
 */
public final class Race {

    private Race() {
    }

    public static Reply commitWhileItWaits(ApiClient api, Backends backends, OpenTransaction other,
                                           ApiClient.Request request) {
        CompletableFuture<Reply> reply = api.sendAsync(request);
        backends.awaitBlockedBy(other.pid());
        other.commit();
        try {
            return reply.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(request + " did not answer after the other transaction committed", e);
        }
    }
}
