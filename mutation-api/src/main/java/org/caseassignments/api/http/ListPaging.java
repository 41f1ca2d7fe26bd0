package org.caseassignments.api.http;

import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import org.caseassignments.api.policy.PolicyEngine;
import org.caseassignments.api.policy.ResourceType;
import org.caseassignments.api.problem.ApiProblem;
import org.caseassignments.api.security.Caller;
import org.springframework.stereotype.Component;

/**
 * Reads a list's {@code limit} and {@code cursor}, decides whether the caller may read anything of the list before
 * reading it, and cuts the rows read into a page of what the caller may read. A cursor is bound to the list it was
 * handed out for ({@link OpaqueCursor}): a case's placements are one list, its kinship options another, the foster
 * homes of one jurisdiction with one set of filters a third.
 */
@Component
public class ListPaging {

    private final ListProperties properties;
    private final OpaqueCursor cursors;
    private final PolicyEngine policy;

    ListPaging(ListProperties properties, OpaqueCursor cursors, PolicyEngine policy) {
        this.properties = properties;
        this.cursors = cursors;
        this.policy = policy;
    }

    /**
     * @param resource which list of the case: its cursors are sealed for the resource's collection and the case
     * @throws ApiProblem 400 {@code VALIDATION_FAILED} for a limit out of range or a cursor this service did not give
     *                    for this list
     */
    public ListPage.Query query(CaseScopedResource resource, UUID caseId, Integer limit, String cursor) {
        return query(OpaqueCursor.scope(resource.collection(), caseId), limit, cursor);
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
     * One page of a list of rows of {@code type}, as the caller may see it. When the caller's ruleset lets it read no
     * row of the type at all, nothing is read: the answer is the empty last page, whatever the list holds. Otherwise
     * {@code read} reads the page's rows and one more, and each row is decided as its single read is: one the caller
     * may not read is left out but still moves the cursor. The page's decisions are one log line.
     *
     * @param read what the repository reads for {@code query}, in list order
     */
    public <R extends ListPage.Row, T> ListPage<T> page(Caller caller, ListPage.Query query, ResourceType type,
                                                        Supplier<List<R>> read, Function<R, T> item) {
        if (policy.readsNone(caller, type)) {
            return ListPage.empty();
        }
        List<R> rows = read.get();
        boolean more = rows.size() > query.limit();
        List<R> page = more ? rows.subList(0, query.limit()) : rows;
        return new ListPage<>(policy.readable(caller, type, page, ListPage.Row::resource).stream().map(item).toList(),
                more ? ListPage.Position.of(page.get(page.size() - 1)).encode(cursors, query.list()) : null);
    }
}
