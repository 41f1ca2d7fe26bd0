package org.caseassignments.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;

import com.nimbusds.jwt.SignedJWT;
import org.caseassignments.api.security.AuthProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalTokensTests {

    @Test
    void shouldSignWithTheIssuerTheMutationApiRefusesOutsideTheLocalStack() {
        assertThat(LocalTokens.ISSUER).isEqualTo(AuthProperties.LOCAL_STACK_ISSUER);
    }

    @Test
    void shouldMintATokenPerRoleAndJurisdictionWithTheClaimsTheRulesetsRead(@TempDir Path dataDir) throws Exception {
        LocalTokens tokens = LocalTokens.loadOrCreate(dataDir);

        var minted = tokens.all();

        assertThat(minted).containsKeys("GEORGIA_CASEWORKER_TOKEN", "TEXAS_COUNTY_DIRECTOR_TOKEN", "GEORGIA_CASEWORKER_2_TOKEN");
        var director = SignedJWT.parse(minted.get("TEXAS_COUNTY_DIRECTOR_TOKEN")).getJWTClaimsSet();
        assertThat(director.getIssuer()).isEqualTo(LocalTokens.ISSUER);
        assertThat(director.getSubject()).isEqualTo("texas-county-director");
        assertThat(director.getStringListClaim("roles")).containsExactly("county_director");
        assertThat(director.getStringClaim("jurisdiction")).isEqualTo("texas");
        assertThat(director.getStringListClaim("admin_units")).containsExactly("texas-unit-1");
        assertThat(Files.readString(tokens.publicKeyPem())).startsWith("-----BEGIN PUBLIC KEY-----");
    }

    @Test
    void shouldKeepTheKeyAcrossRestartsOfTheSameDataFolder(@TempDir Path dataDir) throws Exception {
        String first = Files.readString(LocalTokens.loadOrCreate(dataDir).publicKeyPem());
        String second = Files.readString(LocalTokens.loadOrCreate(dataDir).publicKeyPem());

        assertThat(second).isEqualTo(first);
    }
}
