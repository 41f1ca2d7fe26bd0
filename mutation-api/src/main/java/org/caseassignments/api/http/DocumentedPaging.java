package org.caseassignments.api.http;

import java.math.BigDecimal;

import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.media.IntegerSchema;
import io.swagger.v3.oas.models.media.StringSchema;
import io.swagger.v3.oas.models.parameters.Parameter;
import org.springdoc.core.customizers.OperationCustomizer;
import org.springframework.web.method.HandlerMethod;

/**
 * Documents the paging parameters of every list (a handler answering a {@link ListPage}) as {@link ListPaging}
 * reads them, with the configured maximum: an annotation could only state a constant, and the maximum is a setting.
 */
final class DocumentedPaging implements OperationCustomizer {

    private final int maxPageSize;

    DocumentedPaging(ListProperties lists) {
        this.maxPageSize = lists.maxPageSize();
    }

    @Override
    public Operation customize(Operation operation, HandlerMethod handler) {
        if (!ListPage.class.equals(handler.getMethod().getReturnType()) || operation.getParameters() == null) {
            return operation;
        }
        for (Parameter parameter : operation.getParameters()) {
            if (!"query".equals(parameter.getIn())) {
                continue;
            }
            switch (parameter.getName()) {
                case "limit" -> parameter.description("Items per page, 1 to api.lists.max-page-size (" + maxPageSize
                                + "), which is also the page size without it; 400 VALIDATION_FAILED outside that range")
                        .schema(new IntegerSchema().minimum(BigDecimal.ONE).maximum(BigDecimal.valueOf(maxPageSize))
                                ._default(maxPageSize));
                case "cursor" -> parameter.description("The next_cursor of the previous page, as it was given (opaque); "
                                + "absent for the first page; 400 VALIDATION_FAILED for anything this service did not hand out for "
                                + "this list (this kind of list, of this case or home, with these filters)")
                        .schema(new StringSchema());
                default -> {
                }
            }
        }
        return operation;
    }
}
