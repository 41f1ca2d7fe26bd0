package org.caseassignments.api.http;

import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

import org.caseassignments.api.problem.ApiProblem;
import org.springframework.stereotype.Component;

/** Reads a list's {@code limit} and {@code cursor} and cuts the rows read into a page. */
@Component
public class ListPaging {

    private final ListProperties properties;

    ListPaging(ListProperties properties) {
        this.properties = properties;
    }

    /** @throws ApiProblem 400 {@code VALIDATION_FAILED} for a limit out of range or a cursor this service did not give */
    public ListPage.Query query(Integer limit, String cursor) {
        int max = properties.maxPageSize();
        if (limit != null && (limit < 1 || limit > max)) {
            throw ApiProblem.invalidField("limit", "must be between 1 and " + max);
        }
        ListPage.Position after = cursor == null ? null : ListPage.Position.decode(cursor).orElseThrow(() ->
                ApiProblem.invalidField("cursor", "is not a cursor this service handed out; use next_cursor as given"));
        return new ListPage.Query(limit == null ? max : limit, after);
    }

    /**
     * @param rows       what the repository read for {@code query}, in list order
     * @param positionOf a row's place in the list
     * @param readable   whether the caller may see a row; the others are left out but still move the cursor
     */
    public <R, T> ListPage<T> page(ListPage.Query query, List<R> rows, Function<R, ListPage.Position> positionOf,
                                   Predicate<R> readable, Function<R, T> item) {
        boolean more = rows.size() > query.limit();
        List<R> page = more ? rows.subList(0, query.limit()) : rows;
        return new ListPage<>(page.stream().filter(readable).map(item).toList(),
                more ? positionOf.apply(page.get(page.size() - 1)).encode() : null);
    }
}
