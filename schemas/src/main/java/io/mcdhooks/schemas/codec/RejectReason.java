package io.mcdhooks.schemas.codec;

/** Why an incoming record was refused; low-cardinality, used in dead-letter headers and metrics. */
public enum RejectReason {
    /** Larger than the accepted maximum. */
    TOO_LARGE,
    /** No CloudEvents binary-mode headers, or required attributes missing. */
    NOT_A_CLOUDEVENT,
    /** A CloudEvents type this version does not know, including an unknown schema version. */
    UNKNOWN_TYPE,
    /** A content type other than JSON. */
    UNSUPPORTED_CONTENT_TYPE,
    /** The body is not JSON. */
    MALFORMED_JSON,
    /** JSON that breaks the message kind's schema: a missing or mistyped field. */
    SCHEMA_VIOLATION,
    /** Headers and body disagree (cluster, record key). */
    INCONSISTENT
}
