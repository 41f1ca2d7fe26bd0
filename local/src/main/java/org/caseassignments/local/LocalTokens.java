package org.caseassignments.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jose.jwk.gen.RSAKeyGenerator;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;

/**
 * Bearer tokens for the local stack, signed by a key pair generated on first start and kept in the
 * data folder (so tokens survive a restart, and are gone with {@code --fresh}). The key is never
 * part of a build artifact, and its issuer is one the production configuration refuses.
 */
final class LocalTokens {

    /** Distinct from any real identity provider; the mutation API rejects it unless told it runs locally. */
    static final String ISSUER = "urn:case-assignments:local-stack";
    static final String AUDIENCE = "case-assignments";
    static final List<String> JURISDICTIONS = List.of("georgia", "texas");
    static final List<String> ROLES = List.of("caseworker", "supervisor", "county_director", "admin", "service");
    private static final Duration LIFETIME = Duration.ofHours(12);

    private final RSAKey key;
    private final Path publicKeyPem;

    private LocalTokens(RSAKey key, Path publicKeyPem) {
        this.key = key;
        this.publicKeyPem = publicKeyPem;
    }

    static LocalTokens loadOrCreate(Path dataDir) throws IOException, JOSEException, ParseException {
        Path dir = dataDir.resolve("jwt");
        Files.createDirectories(dir);
        Path jwk = dir.resolve("local-signing-key.jwk.json");
        RSAKey key;
        if (Files.exists(jwk)) {
            key = RSAKey.parse(Files.readString(jwk));
        } else {
            key = new RSAKeyGenerator(2048).keyID("local-" + UUID.randomUUID().toString().substring(0, 8)).generate();
            Files.writeString(jwk, key.toJSONString());
            try {
                Files.setPosixFilePermissions(jwk, PosixFilePermissions.fromString("rw-------"));
            } catch (UnsupportedOperationException ignored) {
                // not a POSIX file system; the data folder is the user's own
            }
        }
        Path pem = dir.resolve("public.pem");
        String encoded = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(key.toRSAPublicKey().getEncoded());
        Files.writeString(pem, "-----BEGIN PUBLIC KEY-----\n" + encoded + "\n-----END PUBLIC KEY-----\n");
        return new LocalTokens(key, pem);
    }

    Path publicKeyPem() {
        return publicKeyPem;
    }

    /** The subject a role has in a jurisdiction, e.g. {@code georgia-caseworker}. */
    static String subject(String jurisdiction, String role) {
        return jurisdiction + "-" + role.replace('_', '-');
    }

    /** The admin unit a jurisdiction's county director holds. */
    static String adminUnit(String jurisdiction) {
        return jurisdiction + "-unit-1";
    }

    /** Shell variable name, e.g. {@code GEORGIA_CASEWORKER_TOKEN}. */
    static String variable(String jurisdiction, String role) {
        return (jurisdiction + "_" + role + "_TOKEN").toUpperCase(Locale.ROOT);
    }

    /** One token per jurisdiction and role, in a stable order, keyed by shell variable name. */
    Map<String, String> all() throws JOSEException {
        Map<String, String> tokens = new LinkedHashMap<>();
        for (String jurisdiction : JURISDICTIONS) {
            for (String role : ROLES) {
                tokens.put(variable(jurisdiction, role), mint(jurisdiction, role, subject(jurisdiction, role)));
            }
            // a second caseworker, to reassign a case to
            tokens.put(variable(jurisdiction, "caseworker_2"),
                    mint(jurisdiction, "caseworker", subject(jurisdiction, "caseworker") + "-2"));
        }
        return tokens;
    }

    String mint(String jurisdiction, String role, String subject) throws JOSEException {
        Instant now = Instant.now();
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer(ISSUER)
                .audience(AUDIENCE)
                .subject(subject)
                .issueTime(Date.from(now))
                .expirationTime(Date.from(now.plus(LIFETIME)))
                .jwtID(UUID.randomUUID().toString())
                .claim("roles", List.of(role))
                .claim("jurisdiction", jurisdiction);
        if (role.equals("county_director")) {
            claims.claim("admin_units", new ArrayList<>(List.of(adminUnit(jurisdiction))));
        }
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).keyID(key.getKeyID()).build(),
                claims.build());
        jwt.sign(new RSASSASigner(key));
        return jwt.serialize();
    }
}
