package io.mcdhooks.schemas;

/** Every message of the wire contract: it names its cluster and knows its Kafka record key. */
public sealed interface Message permits LifecycleEvent, GateRequest, Verdict, GateDecision {

    /** The cluster the message comes from or is meant for. */
    String cluster();

    /** The Kafka record key: the node name, or the pool name for pool-wide messages. */
    String key();

    MessageKind kind();
}
