package org.caseassignments.api.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPrivateKey;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * Tokens for tests, signed with an RSA key pair generated once per test JVM; its public key is
 * written to a PEM file the application is configured to trust.
 * {@code TestTokens.caseworker("w-1").jurisdiction("georgia").token()}.
 */
public final class TestTokens {

    public static final String ISSUER = "https://issuer.test";
    public static final String AUDIENCE = "case-assignments";

    private static final KeyPair KEYS = generate();
    private static final KeyPair STRANGER = generate();
    private static final Path PUBLIC_KEY = writePem();

    private final String sub;
    private List<String> roles = List.of();
    private String jurisdiction = "georgia";
    private List<String> adminUnits = List.of();
    private String issuer = ISSUER;
    private String audience = AUDIENCE;
    private Instant expiresAt = Instant.now().plus(Duration.ofMinutes(10));
    private KeyPair signer = KEYS;
    private final Map<String, Object> rawClaims = new LinkedHashMap<>();

    private TestTokens(String sub) {
        this.sub = sub;
    }

    /** Points the application at the trusted public key, issuer and audience. */
    public static void register(DynamicPropertyRegistry registry) {
        registry.add("auth.issuer", () -> ISSUER);
        registry.add("auth.audience", () -> AUDIENCE);
        registry.add("auth.public-key-location", () -> "file:" + PUBLIC_KEY);
        registry.add("auth.jwk-set-uri", () -> "");
    }

    public static Path publicKeyPem() {
        return PUBLIC_KEY;
    }

    public static TestTokens subject(String sub) {
        return new TestTokens(sub);
    }

    public static TestTokens caseworker(String sub) {
        return subject(sub).roles("caseworker");
    }

    public static TestTokens supervisor(String sub) {
        return subject(sub).roles("supervisor");
    }

    public static TestTokens admin(String sub) {
        return subject(sub).roles("admin");
    }

    public static TestTokens countyDirector(String sub, String... adminUnits) {
        return subject(sub).roles("county_director").adminUnits(adminUnits);
    }

    public TestTokens roles(String... roles) {
        this.roles = List.of(roles);
        return this;
    }

    public TestTokens jurisdiction(String jurisdiction) {
        this.jurisdiction = jurisdiction;
        return this;
    }

    public TestTokens adminUnits(String... adminUnits) {
        this.adminUnits = List.of(adminUnits);
        return this;
    }

    public TestTokens issuer(String issuer) {
        this.issuer = issuer;
        return this;
    }

    public TestTokens audience(String audience) {
        this.audience = audience;
        return this;
    }

    public TestTokens expiredAt(Instant expiresAt) {
        this.expiresAt = expiresAt;
        return this;
    }

    /**
     * Sets a claim to any JSON value, replacing what the builder would put there; {@code null} leaves
     * the claim out. For tokens of a shape the application must refuse: {@code claim("roles", "admin")}.
     */
    public TestTokens claim(String name, Object value) {
        rawClaims.put(name, value);
        return this;
    }

    /** Without an {@code exp} claim: a token that would never expire. */
    public TestTokens withoutExpiry() {
        return claim("exp", null);
    }

    /** Signed by a key the application does not trust. */
    public TestTokens signedByStranger() {
        this.signer = STRANGER;
        return this;
    }

    public String token() {
        JWTClaimsSet.Builder claims = new JWTClaimsSet.Builder()
                .issuer(issuer)
                .audience(audience)
                .issueTime(Date.from(expiresAt.minus(Duration.ofMinutes(20))))
                .expirationTime(Date.from(expiresAt))
                .claim("roles", roles)
                .claim("jurisdiction", jurisdiction)
                .claim("admin_units", adminUnits);
        if (sub != null) {
            claims.subject(sub);
        }
        rawClaims.forEach(claims::claim);
        SignedJWT jwt = new SignedJWT(new JWSHeader.Builder(JWSAlgorithm.RS256).build(), claims.build());
        try {
            jwt.sign(new RSASSASigner((RSAPrivateKey) signer.getPrivate()));
        } catch (JOSEException e) {
            throw new IllegalStateException(e);
        }
        return jwt.serialize();
    }

    private static KeyPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Path writePem() {
        try {
            Path file = Files.createTempFile("test-issuer-", ".pem");
            file.toFile().deleteOnExit();
            String base64 = Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(KEYS.getPublic().getEncoded());
            Files.writeString(file, "-----BEGIN PUBLIC KEY-----\n" + base64 + "\n-----END PUBLIC KEY-----\n");
            return file;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
