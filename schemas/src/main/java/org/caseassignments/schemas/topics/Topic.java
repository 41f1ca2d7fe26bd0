package org.caseassignments.schemas.topics;

import org.apache.kafka.common.serialization.Serde;

/** A topic name with the serdes of its keys and values. */
public record Topic<K, V>(String name, Serde<K> keySerde, Serde<V> valueSerde) {
}
