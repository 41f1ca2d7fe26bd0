package org.caseassignments.api.http;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.LocalDate;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;

/**
 * On every date of a request: from 0001-01-01 to 9999-12-31. Java reads {@code +10000-01-01} and
 * {@code -0001-01-01}; PostgreSQL and most clients do not agree with it on such years, and no placement
 * needs them. Null passes.
 */
@Documented
@Constraint(validatedBy = CalendarDate.Check.class)
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE_USE})
public @interface CalendarDate {

    String message() default "must be a date from 0001-01-01 to 9999-12-31";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Check implements ConstraintValidator<CalendarDate, LocalDate> {

        private static final LocalDate FIRST = LocalDate.of(1, 1, 1);
        private static final LocalDate LAST = LocalDate.of(9999, 12, 31);

        @Override
        public boolean isValid(LocalDate value, ConstraintValidatorContext context) {
            return value == null || !value.isBefore(FIRST) && !value.isAfter(LAST);
        }
    }
}
