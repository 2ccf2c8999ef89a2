package io.mcdhooks.sandbox.mco;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ApiPathTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "/api/v1/nodes,                                              '', v1, '', nodes, '', ''",
        "/api/v1/nodes/worker-0,                                     '', v1, '', nodes, worker-0, ''",
        "/api/v1/nodes/worker-0/status,                              '', v1, '', nodes, worker-0, status",
        "/api/v1/namespaces/apps/pods/web/eviction,                  '', v1, apps, pods, web, eviction",
        "/api/v1/namespaces/apps,                                    '', v1, '', namespaces, apps, ''",
        "/api/v1/namespaces/apps/status,                             '', v1, '', namespaces, apps, status",
        "/api/v1/namespaces/apps/events?fieldSelector=x,             '', v1, apps, events, '', ''",
        "/apis/machineconfiguration.openshift.io/v1/machineconfignodes/w/status, machineconfiguration.openshift.io, v1, '', machineconfignodes, w, status",
        "/apis/admissionregistration.k8s.io/v1beta1/validatingadmissionpolicies/p, admissionregistration.k8s.io, v1beta1, '', validatingadmissionpolicies, p, ''",
    })
    void readsWhatAResourcePathNames(
            String path, String group, String version, String namespace, String resource, String name, String sub) {
        ApiPath parsed = ApiPath.parse(path);

        assertThat(parsed.group()).isEqualTo(group);
        assertThat(parsed.version()).isEqualTo(version);
        assertThat(parsed.namespace()).isEqualTo(namespace);
        assertThat(parsed.resource()).isEqualTo(resource);
        assertThat(parsed.name()).isEqualTo(name);
        assertThat(parsed.subresource()).isEqualTo(sub);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/version", "/healthz", "/api", "/api/v1", "/apis", "/apis/apps", "/apis/apps/v1"})
    void discoveryAndHealthPathsNameNoResource(String path) {
        assertThat(ApiPath.parse(path)).isNull();
    }

    @ParameterizedTest(name = "{0} {1} is {2}")
    @CsvSource({
        "GET, /api/v1/nodes, list",
        "GET, /api/v1/nodes?watch=true, watch",
        "GET, /api/v1/nodes/w, get",
        "POST, /api/v1/namespaces/a/pods, create",
        "PUT, /api/v1/nodes/w, update",
        "PATCH, /api/v1/nodes/w, patch",
        "DELETE, /api/v1/nodes/w, delete",
        "DELETE, /api/v1/namespaces/a/pods, deletecollection",
    })
    void namesTheVerbRbacWouldAuthorise(String method, String path, String verb) {
        assertThat(ApiPath.parse(path).verb(method)).isEqualTo(verb);
    }
}
