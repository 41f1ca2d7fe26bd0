package org.caseassignments.api.http;

import java.net.URI;
import java.util.Arrays;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Collectors;

import org.caseassignments.store.LockOrder.CaseScopedTable;

/**
 * The resources that belong to a case, each a collection at {@code /cases/{caseId}/<collection>} (create, list) and
 * {@code /<collection>/{id}} (read, write): their rows carry a copy of the case's assignment (one case-scoped table
 * each), every write holds the case's projection row, and a write may wait for the projection
 * ({@code Min-Assignment-Revision}). Foster homes are no case's. The one list of them: the controllers' mappings
 * (through the constants below, as an annotation's value must be a constant), the filter that holds a write for the
 * projection and the OpenAPI notes of a case-scoped write derive from it.
 */
public enum CaseScopedResource {
    PLACEMENTS(CaseScopedResource.PLACEMENTS_COLLECTION, CaseScopedTable.PLACEMENTS),
    KINSHIP_OPTIONS(CaseScopedResource.KINSHIP_OPTIONS_COLLECTION, CaseScopedTable.KINSHIP_OPTIONS);

    private static final String IN_CASE = "/cases/{caseId}/";
    private static final String RECORD = "/{id}";

    public static final String PLACEMENTS_COLLECTION = "placements";
    /** Creates and lists a case's placements. */
    public static final String PLACEMENTS_OF_CASE = IN_CASE + PLACEMENTS_COLLECTION;
    /** Reads and writes one placement. */
    public static final String PLACEMENT = "/" + PLACEMENTS_COLLECTION + RECORD;

    public static final String KINSHIP_OPTIONS_COLLECTION = "kinship-options";
    /** Creates and lists a case's kinship options. */
    public static final String KINSHIP_OPTIONS_OF_CASE = IN_CASE + KINSHIP_OPTIONS_COLLECTION;
    /** Reads, writes and deletes one kinship option. */
    public static final String KINSHIP_OPTION = "/" + KINSHIP_OPTIONS_COLLECTION + RECORD;

    private final String collection;
    private final CaseScopedTable table;

    CaseScopedResource(String collection, CaseScopedTable table) {
        this.collection = collection;
        this.table = table;
    }

    /** The collection's path segment, also the kind of the case's list its cursors are sealed for. */
    public String collection() {
        return collection;
    }

    /** The mapping that creates and lists a case's records: {@code /cases/{caseId}/<collection>}. */
    public String ofCase() {
        return IN_CASE + collection;
    }

    /** The mapping of one record: {@code /<collection>/{id}}. */
    public String record() {
        return "/" + collection + RECORD;
    }

    /** Where the record {@code id} is: a create's {@code Location}. */
    public URI location(UUID id) {
        return URI.create("/" + collection + "/" + id);
    }

    /** The table its rows are in, which a write holds the case for. */
    public CaseScopedTable table() {
        return table;
    }

    /** The resource whose collection a path segment names. */
    public static Optional<CaseScopedResource> ofCollection(String segment) {
        return Arrays.stream(values()).filter(resource -> resource.collection.equals(segment)).findFirst();
    }

    /** The resource a mapping ({@code /cases/{caseId}/placements}, {@code /placements/{id}}) is of, if any. */
    public static Optional<CaseScopedResource> mappedAt(String mapping) {
        return Arrays.stream(values())
                .filter(resource -> resource.ofCase().equals(mapping) || resource.record().equals(mapping))
                .findFirst();
    }

    /** Them all in words, for an answer that says which writes it applies to: "placements and kinship options". */
    public static String inWords() {
        return Arrays.stream(values()).map(resource -> resource.collection.replace('-', ' '))
                .collect(Collectors.joining(" and "));
    }
}
