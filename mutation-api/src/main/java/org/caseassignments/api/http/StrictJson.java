package org.caseassignments.api.http;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.type.LogicalType;

/**
 * The coercions {@code application.yml} cannot switch off: Jackson reads {@code "name": 5} as the text
 * {@code "5"} and {@code "foster_home_id": ""} as null unless told otherwise. A request body is read
 * as written or refused (400 {@code VALIDATION_FAILED} naming the field).
 */
@Configuration(proxyBeanMethods = false)
class StrictJson {

    @Bean
    JsonMapperBuilderCustomizer refuseScalarCoercions() {
        return builder -> builder
                .withCoercionConfig(LogicalType.Textual, text -> text
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
                .withCoercionConfigDefaults(every -> every
                        .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail));
    }
}
