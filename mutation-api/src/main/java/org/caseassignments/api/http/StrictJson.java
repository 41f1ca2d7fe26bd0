package org.caseassignments.api.http;

import java.time.LocalDate;

import org.springframework.boot.jackson.autoconfigure.JsonMapperBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.BeanDescription;
import tools.jackson.databind.DeserializationConfig;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.cfg.CoercionAction;
import tools.jackson.databind.cfg.CoercionInputShape;
import tools.jackson.databind.deser.ValueDeserializerModifier;
import tools.jackson.databind.deser.std.DelegatingDeserializer;
import tools.jackson.databind.module.SimpleModule;
import tools.jackson.databind.type.LogicalType;

/**
 * The coercions {@code application.yml} cannot switch off: Jackson reads {@code "name": 5} as the text
 * {@code "5"}, {@code "foster_home_id": ""} as null and {@code "start_date": [2020, 1, 1]} as a date
 * unless told otherwise. A request body is read as written or refused (400 {@code VALIDATION_FAILED}
 * naming the field).
 */
@Configuration(proxyBeanMethods = false)
class StrictJson {

    @Bean
    JsonMapperBuilderCustomizer refuseScalarCoercions() {
        SimpleModule datesAreText = new SimpleModule("dates-are-text");
        datesAreText.setDeserializerModifier(new ValueDeserializerModifier() {
            @Override
            public ValueDeserializer<?> modifyDeserializer(DeserializationConfig config, BeanDescription.Supplier type,
                                                           ValueDeserializer<?> deserializer) {
                return type.getBeanClass() == LocalDate.class ? new OnlyText(deserializer) : deserializer;
            }
        });
        return builder -> builder
                .withCoercionConfig(LogicalType.Textual, text -> text
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
                .withCoercionConfigDefaults(every -> every
                        .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail))
                .addModule(datesAreText);
    }

    /**
     * Jackson's date reader takes {@code [y, m, d]} whatever the leniency; this one takes only a string
     * (or null) and leaves the rest — strict ISO format, leniency — to the reader it wraps.
     */
    private static final class OnlyText extends DelegatingDeserializer {

        OnlyText(ValueDeserializer<?> delegate) {
            super(delegate);
        }

        @Override
        protected ValueDeserializer<?> newDelegatingInstance(ValueDeserializer<?> delegate) {
            return new OnlyText(delegate);
        }

        @Override
        public Object deserialize(JsonParser parser, DeserializationContext context) {
            if (!parser.hasToken(JsonToken.VALUE_STRING)) {
                return context.handleUnexpectedToken(handledType(), parser);
            }
            return super.deserialize(parser, context);
        }
    }
}
