package io.mcdhooks.sandbox.mco;

/**
 * A validation that failed under a binding whose {@code validationActions} say {@code Warn} or
 * {@code Audit}: kube-apiserver sends the first as a response warning and writes the second into
 * its audit log; the in-memory API server keeps both here (see
 * {@link InMemoryCluster#admissionRecords()}).
 */
public record AdmissionRecord(
        String policy,
        String binding,
        String action,
        String message,
        String username,
        String operation,
        String resource,
        String namespace,
        String name) {}
