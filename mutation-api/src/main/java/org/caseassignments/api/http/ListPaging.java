package org.caseassignments.api.http;

import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import org.caseassignments.api.problem.ApiProblem;
import org.springframework.stereotype.Component;

/**
 * Reads a list's {@code limit} and {@code cursor} and cuts the rows read into a page. A cursor is bound to the list it
 * was handed out for ({@link OpaqueCursor}): a case's placements are one list, its kinship options another, the foster
 * homes of one jurisdiction with one set of filters a third.
 */
@Component
public class ListPaging {

    private final ListProperties properties;
    private final OpaqueCursor cursors;

    ListPaging(ListProperties properties, OpaqueCursor cursors) {
        this.properties = properties;
        this.cursors = cursors;
    }

    /**
     * @param kind   which list of the case: {@code placements}, {@code kinship-options}
     * @throws ApiProblem 400 {@code VALIDATION_FAILED} for a limit out of range or a cursor this service did not give
     *                    for this list
     */
    public ListPage.Query query(String kind, UUID caseId, Integer limit, String cursor) {
        return query(OpaqueCursor.scope(kind, caseId), limit, cursor);
    }

    /**
     * @param list the list's {@link OpaqueCursor#scope}: its kind and everything that selects its rows (the caller's
     *             jurisdiction, the filters), so a cursor is accepted only with the list it was handed out for
     * @throws ApiProblem 400 {@code VALIDATION_FAILED} for a limit out of range or a cursor this service did not give
     *                    for this list
     */
    public ListPage.Query query(String list, Integer limit, String cursor) {
        int max = properties.maxPageSize();
        if (limit != null && (limit < 1 || limit > max)) {
            throw ApiProblem.invalidField("limit", "must be between 1 and " + max);
        }
        ListPage.Position after = cursor == null ? null : ListPage.Position.decode(cursors, list, cursor)
                .orElseThrow(ListPaging::notHandedOut);
        return new ListPage.Query(list, limit == null ? max : limit, after);
    }

    /**
     * A filter naming one value of {@code type} as it is written ({@code ACTIVE}); null when the filter is absent.
     *
     * @throws ApiProblem 400 {@code VALIDATION_FAILED} naming the parameter and the values it takes
     */
    public static <E extends Enum<E>> E oneOf(String parameter, String value, Class<E> type) {
        if (value == null) {
            return null;
        }
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equals(value)) {
                return constant;
            }
        }
        throw ApiProblem.invalidField(parameter, "must be one of " + Arrays.stream(type.getEnumConstants())
                .map(Enum::name).collect(Collectors.joining(", ")));
    }

    /** The 400 of a cursor this service did not hand out for the list it is used with. */
    public static ApiProblem notHandedOut() {
        return ApiProblem.invalidField("cursor", "is not a cursor this service handed out for this list; use "
                + "next_cursor as given, with the list and the filters it came with");
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
                more ? positionOf.apply(page.get(page.size() - 1)).encode(cursors, query.list()) : null);
    }
}
