package io.mcdhooks.sandbox.local;

import io.mcdhooks.sandbox.mco.InMemoryCluster;
import io.mcdhooks.sandbox.mco.MaxUnavailable;
import io.mcdhooks.sandbox.mco.Topology;

/**
 * A cluster of the local run's own: in memory, 1 master and 2 workers in zone-a, worker maxUnavailable 1,
 * booted from the OS image the local run's registry holds (its digest is fixed), as a cluster's mirror would.
 */
final class TwoWorkers {

    private TwoWorkers() {}

    static InMemoryCluster start() {
        InMemoryCluster cluster = InMemoryCluster.start();
        try {
            Topology.builder()
                    .osImageUrl(LocalRegistry.OS_IMAGE)
                    .masters(1)
                    .workers(2)
                    .zones("zone-a")
                    .maxUnavailable("worker", MaxUnavailable.of(1))
                    .build()
                    .apply(cluster.client());
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }
}
