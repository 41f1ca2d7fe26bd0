package org.caseassignments.api.http;

import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The OpenAPI description at {@code /v3/api-docs} (and {@code /swagger-ui.html}), readable without a token. */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    @Bean
    OpenAPI mutationApi() {
        return new OpenAPI()
                .info(new Info().title("case-assignments mutation API").version("1")
                        .description("Placements, kinship options and foster homes. Every write is authorized by the "
                                + "caller's jurisdiction's ruleset before a transaction opens, rechecked against the "
                                + "locked row, and conditional on If-Match (strong ETags, the row version: \"7\"). "
                                + "Errors are RFC 9457 problem documents with a stable code; a denial is a 403 with "
                                + "an empty body."))
                .components(new Components().addSecuritySchemes("bearer", new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP).scheme("bearer").bearerFormat("JWT")))
                .addSecurityItem(new SecurityRequirement().addList("bearer"));
    }
}
