package org.caseassignments.api.http;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a conditional write. Its {@code If-Match} header is checked before the request body is read
 * or any argument is converted (428 when absent, blank or {@code *}; 400 when malformed), and the
 * handler receives the parsed {@link IfMatch} as a parameter. Every PATCH and DELETE carries it (an
 * architecture test keeps it so).
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface RequiresIfMatch {
}
