package org.caseassignments.api.policy;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * One field of the {@code resource} variable a condition can read: a top-level field, or one entry of
 * {@code resource.attrs}. The update path compares exactly these between the image it authorized and
 * the locked row.
 *
 * @param name      the top-level field's name, or the attribute's key
 * @param attribute whether this is {@code resource.attrs.<name>}
 */
public record ResourceField(String name, boolean attribute) {

    public static final ResourceField TYPE = new ResourceField("type", false);
    public static final ResourceField ID = new ResourceField("id", false);
    public static final ResourceField CASE_ID = new ResourceField("case_id", false);
    public static final ResourceField ASSIGNED_WORKER_SUB = new ResourceField("assigned_worker_sub", false);
    public static final ResourceField SUPERVISOR_SUB = new ResourceField("supervisor_sub", false);
    /** The record's jurisdiction: checked by the engine before any rule, and compared on every update. */
    public static final ResourceField JURISDICTION = new ResourceField("jurisdiction", false);

    /** The key of the map of attributes; not a field by itself (a condition must name the attribute). */
    static final String ATTRS = "attrs";

    /**
     * Every top-level field and how a {@link ResourceRef} holds it: the one list the activation, the
     * load-time vetting and the locked compare read. A new top-level field is one entry here (and its
     * record component in {@link ResourceRef}).
     */
    private static final Map<ResourceField, Function<ResourceRef, Object>> TOP_LEVEL = topLevel();

    public ResourceField {
        Objects.requireNonNull(name, "name");
    }

    public static ResourceField attribute(String key) {
        return new ResourceField(key, true);
    }

    static Set<ResourceField> topLevelFields() {
        return TOP_LEVEL.keySet();
    }

    /** The value {@code resource} carries for this field; null when absent. */
    public Object valueIn(ResourceRef resource) {
        return attribute ? resource.attrs().get(name) : TOP_LEVEL.get(this).apply(resource);
    }

    /** {@code assigned_worker_sub}, {@code attrs.admin_unit}. */
    public String path() {
        return attribute ? ATTRS + "." + name : name;
    }

    @Override
    public String toString() {
        return "resource." + path();
    }

    private static Map<ResourceField, Function<ResourceRef, Object>> topLevel() {
        Map<ResourceField, Function<ResourceRef, Object>> fields = new LinkedHashMap<>();
        fields.put(TYPE, resource -> resource.type().wireName());
        fields.put(ID, ResourceRef::id);
        fields.put(CASE_ID, ResourceRef::caseId);
        fields.put(ASSIGNED_WORKER_SUB, ResourceRef::assignedWorkerSub);
        fields.put(SUPERVISOR_SUB, ResourceRef::supervisorSub);
        fields.put(JURISDICTION, ResourceRef::jurisdiction);
        return Collections.unmodifiableMap(fields);
    }
}
