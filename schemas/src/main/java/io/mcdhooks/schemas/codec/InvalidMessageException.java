package io.mcdhooks.schemas.codec;

import io.mcdhooks.schemas.MessageKind;
import java.util.List;

/**
 * A message that cannot be accepted. The text names the message kind (when known) and every
 * offending field, e.g. {@code invalid GateRequest (SCHEMA_VIOLATION): $.stage: ...}.
 */
public final class InvalidMessageException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient MessageKind kind;
    private final RejectReason reason;
    private final List<String> problems;

    public InvalidMessageException(MessageKind kind, RejectReason reason, List<String> problems, Throwable cause) {
        super(describe(kind, reason, problems), cause);
        this.kind = kind;
        this.reason = reason;
        this.problems = List.copyOf(problems);
    }

    public InvalidMessageException(MessageKind kind, RejectReason reason, String problem) {
        this(kind, reason, List.of(problem), null);
    }

    /** The message kind, or {@code null} when not even that could be told. */
    public MessageKind kind() {
        return kind;
    }

    public RejectReason reason() {
        return reason;
    }

    /** One entry per problem, each naming the field (as a JSON path) where there is one. */
    public List<String> problems() {
        return problems;
    }

    private static String describe(MessageKind kind, RejectReason reason, List<String> problems) {
        return "invalid " + (kind == null ? "message" : kind.displayName()) + " (" + reason + "): "
                + String.join("; ", problems);
    }
}
