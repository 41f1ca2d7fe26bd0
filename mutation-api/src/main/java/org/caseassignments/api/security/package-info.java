/**
 * Who is calling: the JWT resource-server configuration (signature, expiry, issuer, audience, keys
 * from a JWK set URI or a configured public key), the strict shape of the claims ({@link
 * org.caseassignments.api.security.TokenRules}) and the {@link org.caseassignments.api.security.Caller}
 * built from a validated token's claims. A missing or invalid token is a 401 before any handler runs.
 */
package org.caseassignments.api.security;
