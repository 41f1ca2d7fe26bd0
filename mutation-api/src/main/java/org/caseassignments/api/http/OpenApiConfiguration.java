package org.caseassignments.api.http;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import io.swagger.v3.core.jackson.ModelResolver;
import io.swagger.v3.core.util.Json;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.info.License;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.HeaderParameter;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.swagger.v3.oas.models.servers.Server;
import org.caseassignments.api.security.Caller;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springdoc.core.utils.SpringDocUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI description at {@code /v3/api-docs} (and {@code /swagger-ui.html}), readable without a
 * token. Its schemas use the same snake_case names as the JSON on the wire; the caller and the
 * If-Match precondition are not body or query parameters, and every conditional write documents
 * its required If-Match header.
 */
@Configuration(proxyBeanMethods = false)
class OpenApiConfiguration {

    static {
        SpringDocUtils.getConfig().addRequestWrapperToIgnore(Caller.class, IfMatch.class);
    }

    @Bean
    OpenAPI mutationApi(OpenApiProperties settings) {
        OpenAPI openApi = new OpenAPI()
                .info(new Info().title("case-assignments mutation API").version("1")
                        .license(new License().name(settings.licenseName())
                                .url(settings.licenseUrl() == null || settings.licenseUrl().isBlank() ? null
                                        : settings.licenseUrl()))
                        .description("Placements, kinship options and foster homes. Every write is authorized by the "
                                + "caller's jurisdiction's ruleset before a transaction opens, rechecked against the "
                                + "locked row, and conditional on If-Match (strong, opaque ETags naming one version of one "
                                + "resource: send back the one you read). "
                                + "Errors are RFC 9457 problem documents with a stable code; a denial is a 403 with "
                                + "an empty body."))
                .components(new Components()
                        .addSchemas(DocumentedResponses.PROBLEM, DocumentedResponses.problemSchema())
                        .addSecuritySchemes("bearer", new SecurityScheme()
                        .type(SecurityScheme.Type.HTTP).scheme("bearer").bearerFormat("JWT")))
                .addSecurityItem(new SecurityRequirement().addList("bearer"));
        // none configured: the document names the URL it was fetched from, as the generator does by default
        settings.servers().forEach(url -> openApi.addServersItem(new Server().url(url)));
        return openApi;
    }

    /** The schema generator has its own (Jackson 2) mapper: give it the wire's naming rule. */
    @Bean
    ModelResolver snakeCaseSchemas() {
        return new ModelResolver(Json.mapper().copy().setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE));
    }

    @Bean
    OperationCustomizer documentedResponses() {
        return new DocumentedResponses();
    }

    @Bean
    OperationCustomizer documentedPaging(ListProperties lists) {
        return new DocumentedPaging(lists);
    }

    @Bean
    OperationCustomizer ifMatchHeader() {
        return (operation, handler) -> {
            if (handler.hasMethodAnnotation(RequiresIfMatch.class)) {
                operation.addParametersItem(new HeaderParameter().name(IfMatch.HEADER).required(true)
                        .description("The ETag of the version you read, as the ETag header gave it (a list of tags "
                                + "is accepted; * is refused with 428; a tag of another version is 412)")
                        .schema(new StringSchema()));
            }
            return operation;
        };
    }
}
