package org.caseassignments.schemas.serde;

import org.apache.avro.SystemLimitException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds what one Avro length prefix may make the decoder allocate. Avro reads its limits from system
 * properties once, when {@link SystemLimitException} is first loaded, and by default allows arrays of
 * about 2 GiB, so a corrupt prefix in a 1 MiB record could ask for gigabytes. {@link AvroEventCodec}
 * installs these limits before it decodes anything; a value an operator set on the command line wins.
 * A decode that hits a limit fails like any corrupt body ({@code MALFORMED_PAYLOAD}).
 */
final class DecodeLimits {

    /** Longest string or bytes value: no field of a case event comes near a record's own size limit. */
    static final int MAX_LENGTH = 1 << 20;

    /** Most items in one array or map; the case events have none, an unknown writer field may. */
    static final int MAX_COLLECTION_ITEMS = 1 << 16;

    private static final Logger log = LoggerFactory.getLogger(DecodeLimits.class);

    private DecodeLimits() {
    }

    static void install() {
        boolean ours = setIfAbsent(SystemLimitException.MAX_STRING_LENGTH_PROPERTY, MAX_LENGTH)
                & setIfAbsent(SystemLimitException.MAX_BYTES_LENGTH_PROPERTY, MAX_LENGTH)
                & setIfAbsent(SystemLimitException.MAX_COLLECTION_LENGTH_PROPERTY, MAX_COLLECTION_ITEMS);
        if (ours && !inForce()) {
            log.warn("Avro's decode limits were fixed before the case event codec loaded, so a corrupt length prefix "
                    + "may allocate up to 2 GiB; start the JVM with -D{}={} (and the bytes and collectionItems limits)",
                    SystemLimitException.MAX_STRING_LENGTH_PROPERTY, MAX_LENGTH);
        }
    }

    /** Whether Avro refuses a string, bytes value and collection one past this class's limits. */
    static boolean inForce() {
        return refuses(() -> SystemLimitException.checkMaxStringLength(MAX_LENGTH + 1L))
                && refuses(() -> SystemLimitException.checkMaxBytesLength(MAX_LENGTH + 1L))
                && refuses(() -> SystemLimitException.checkMaxCollectionLength(MAX_COLLECTION_ITEMS + 1L));
    }

    private static boolean setIfAbsent(String property, int value) {
        if (System.getProperty(property) != null) {
            return false;
        }
        System.setProperty(property, Integer.toString(value));
        return true;
    }

    private static boolean refuses(Runnable check) {
        try {
            check.run();
            return false;
        } catch (SystemLimitException e) {
            return true;
        }
    }
}
