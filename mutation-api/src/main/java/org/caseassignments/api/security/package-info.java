/**
 * Who is calling: the JWT resource-server configuration (signature, expiry, issuer, audience, keys
 * from a JWK set URI or a configured public key), the strict shape of the claims ({@link
 * org.caseassignments.api.security.TokenRules}), the bounded cache of verified tokens that keeps every
 * one of those rules ({@link org.caseassignments.api.security.CachingJwtDecoder}), the filter chain and
 * firewall a bearer-token API needs, and the {@link org.caseassignments.api.security.Caller} built from a
 * validated token's claims. A missing or invalid token is a 401 before any handler runs. Whether a token's
 * jurisdiction is served is asked through {@link org.caseassignments.api.security.ServedJurisdictions}, which the
 * policy answers: this package knows none of the policy's types.
 */
package org.caseassignments.api.security;
