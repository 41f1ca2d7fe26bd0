package org.caseassignments.api.http;

import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * What the OpenAPI description says of where and under which terms it is served ({@code api.openapi.*});
 * each has an environment-variable override in application.yml.
 *
 * @param servers     the URLs clients reach this API at ({@code API_OPENAPI_SERVERS}, comma-separated); empty: the
 *                    URL of the request that fetched the document
 * @param licenseName the licence the description names ({@code API_OPENAPI_LICENSE_NAME})
 * @param licenseUrl  where its text is ({@code API_OPENAPI_LICENSE_URL}); empty: none
 */
@ConfigurationProperties("api.openapi")
record OpenApiProperties(@DefaultValue List<String> servers, String licenseName, String licenseUrl) {

    OpenApiProperties {
        servers = servers.stream().map(String::trim).filter(url -> !url.isEmpty()).toList();
    }
}
