package org.caseassignments.api.http;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * HTTP settings ({@code api.*}); each has an environment-variable override in application.yml.
 *
 * @param maxBodySize the largest request body accepted ({@code API_MAX_BODY_SIZE}); larger is a 413
 */
@ConfigurationProperties("api")
public record ApiProperties(@DefaultValue("64KB") DataSize maxBodySize) {
}
