package org.caseassignments.api.write;

import org.caseassignments.api.policy.PolicyDenied;

/**
 * The case of the row a write holds is of another jurisdiction than the one the write was authorized in: it moved
 * under the request. Answered as any write to another jurisdiction's record, the empty 403 (decision 34).
 */
final class MovedAway extends PolicyDenied {
}
