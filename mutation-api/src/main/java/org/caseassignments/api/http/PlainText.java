package org.caseassignments.api.http;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import org.caseassignments.store.StorableText;

/**
 * On every text field of a request: text PostgreSQL stores as sent ({@link StorableText}: no NUL, no
 * unpaired surrogate) and a one-line label, so no control character either (C0 such as tab and line
 * feed, DEL, C1). Null passes: whether a field is required is another constraint's business.
 */
@Documented
@Constraint(validatedBy = PlainText.Check.class)
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE_USE})
public @interface PlainText {

    String message() default "must be one line of text without control characters";

    Class<?>[] groups() default {};

    Class<? extends Payload>[] payload() default {};

    class Check implements ConstraintValidator<PlainText, String> {

        /**
         * What is wrong with {@code value} as plain text, naming code points and indexes only, never the value; null
         * when nothing is. For text that arrives elsewhere than in a body, such as a query parameter.
         */
        public static String problem(String value) {
            String problem = StorableText.textProblem(value);
            for (int i = 0; problem == null && value != null && i < value.length(); i++) {
                if (Character.isISOControl(value.charAt(i))) {
                    problem = "contains the control character U+%04X at index %d; send one line of text without them"
                            .formatted((int) value.charAt(i), i);
                }
            }
            return problem;
        }

        @Override
        public boolean isValid(String value, ConstraintValidatorContext context) {
            String problem = problem(value);
            if (problem == null) {
                return true;
            }
            // the message names code points and indexes only, never the value, so it is safe as a template
            context.disableDefaultConstraintViolation();
            context.buildConstraintViolationWithTemplate(problem).addConstraintViolation();
            return false;
        }
    }
}
