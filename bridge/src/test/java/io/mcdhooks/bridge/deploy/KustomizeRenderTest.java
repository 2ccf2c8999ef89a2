package io.mcdhooks.bridge.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The kustomizations rendered by a real kustomize ({@code kustomize build}, or kubectl's built-in
 * {@code kubectl kustomize}; v4 or newer, which knows {@code patches} and generator labels), and
 * every object rendered validated against its schema: fabric8's models strictly, the Prometheus
 * Operator's kinds against their CRDs. {@code oc apply -k deploy/overlays/openshift} installs what
 * this renders.
 */
class KustomizeRenderTest {

    private static final Path DASHBOARD =
            Manifests.DEPLOY.resolve("monitoring").resolve("dashboard").resolve("mcdhooks-rollout.json");

    @Test
    void theOpenShiftOverlayInstallsTheMonitorsTheAlertsAndTheConsoleDashboard() throws Exception {
        List<Manifests.Document> objects = render("overlays/openshift");

        assertThat(objects).allSatisfy(KustomizeRenderTest::validInItsNamespace);
        assertThat(names(objects, "monitoring.coreos.com/v1/ServiceMonitor"))
                .as("each ServiceMonitor beside what it scrapes")
                .containsExactlyInAnyOrder("mcdhooks/mcdhooks-bridge", "mcdhooks-hooks/mcdhooks-hook-runners");
        assertThat(names(objects, "monitoring.coreos.com/v1/PrometheusRule")).containsExactly("mcdhooks/mcdhooks");
        ConfigMap dashboard = one(objects, "v1/ConfigMap", "mcdhooks-rollout-dashboard", ConfigMap.class);
        assertThat(dashboard.getMetadata().getNamespace()).isEqualTo("openshift-config-managed");
        assertThat(dashboard.getMetadata().getLabels()).containsEntry("console.openshift.io/dashboard", "true");
        assertThat(dashboard.getData()).containsOnlyKeys("mcdhooks-rollout.json");
        assertThat(dashboard.getData().get("mcdhooks-rollout.json"))
                .as("the console's dashboard is the Grafana JSON, as it is")
                .isEqualTo(Files.readString(DASHBOARD));
        everyMonitorScrapesPodsOfAWorkload(objects);
    }

    @Test
    void theOpenShift416OverlayShipsEveryAdmissionPolicyAsV1beta1Only() throws Exception {
        List<Manifests.Document> objects = render("overlays/openshift-4.16");
        List<Manifests.Document> v1 = render("overlays/openshift");

        assertThat(objects).allSatisfy(KustomizeRenderTest::validInItsNamespace);
        assertThat(admission(objects))
                .as("the policies and bindings of the v1 overlay, each as v1beta1")
                .isEqualTo(admission(v1).stream()
                        .map(k ->
                                k.replace("admissionregistration.k8s.io/v1/", "admissionregistration.k8s.io/v1beta1/"))
                        .toList())
                .anyMatch(k -> k.endsWith("/mcdhooks-post-update-hold"))
                .allMatch(k -> k.startsWith("admissionregistration.k8s.io/v1beta1/"));
    }

    /** The admission objects rendered, as kind key/name, in order. */
    private static List<String> admission(List<Manifests.Document> objects) {
        return objects.stream()
                .filter(d -> d.kindKey().startsWith("admissionregistration.k8s.io/"))
                .map(d -> d.kindKey() + "/" + d.name())
                .sorted()
                .toList();
    }

    @Test
    void theKubernetesOverlayAndTheMonitoringOnTheirOwnRenderValidObjects() throws Exception {
        List<Manifests.Document> kubernetes = render("overlays/kubernetes");
        List<Manifests.Document> monitoring = render("monitoring");

        assertThat(kubernetes).isNotEmpty().allSatisfy(KustomizeRenderTest::validInItsNamespace);
        assertThat(names(kubernetes, "monitoring.coreos.com/v1/ServiceMonitor")).isEmpty();
        assertThat(monitoring).allSatisfy(KustomizeRenderTest::validInItsNamespace);
        assertThat(monitoring)
                .extracting(Manifests.Document::kindKey)
                .containsOnly(
                        "v1/Service",
                        "monitoring.coreos.com/v1/ServiceMonitor",
                        "monitoring.coreos.com/v1/PrometheusRule");
    }

    /** Each ServiceMonitor selects a Service with its port, and each Service the pods of a workload. */
    private static void everyMonitorScrapesPodsOfAWorkload(List<Manifests.Document> objects) {
        List<Service> services = typed(objects, "v1/Service", Service.class);
        List<Map<String, String>> podLabels = new ArrayList<>();
        typed(objects, "apps/v1/Deployment", Deployment.class)
                .forEach(d ->
                        podLabels.add(d.getSpec().getTemplate().getMetadata().getLabels()));
        typed(objects, "apps/v1/DaemonSet", DaemonSet.class)
                .forEach(d ->
                        podLabels.add(d.getSpec().getTemplate().getMetadata().getLabels()));
        for (Manifests.Document monitor : objects) {
            if (!monitor.kindKey().equals("monitoring.coreos.com/v1/ServiceMonitor")) {
                continue;
            }
            Map<String, String> selector =
                    labels(monitor.tree().path("spec").path("selector").path("matchLabels"));
            String port = monitor.tree()
                    .path("spec")
                    .path("endpoints")
                    .path(0)
                    .path("port")
                    .asText();
            List<Service> selected = services.stream()
                    .filter(s -> s.getMetadata().getLabels().entrySet().containsAll(selector.entrySet()))
                    .toList();
            assertThat(selected).as(monitor + " selects a Service").hasSize(1);
            Service service = selected.get(0);
            assertThat(service.getSpec().getPorts())
                    .as(monitor + " scrapes a port of " + service.getMetadata().getName())
                    .anySatisfy(p -> assertThat(p.getName()).isEqualTo(port));
            assertThat(podLabels)
                    .as(
                            "Service %s selects the pods of a workload",
                            service.getMetadata().getName())
                    .anySatisfy(labels -> assertThat(labels)
                            .containsAllEntriesOf(service.getSpec().getSelector()));
        }
        long hookWorkloads = podLabels.stream()
                .filter(l -> l.containsKey("mcdhooks.io/hook"))
                .count();
        long scraped = podLabels.stream()
                .filter(l -> "hook-runner".equals(l.get("app.kubernetes.io/component")))
                .count();
        assertThat(scraped)
                .as("every example hook's pods are scraped")
                .isEqualTo(hookWorkloads)
                .isPositive();
    }

    private static void validInItsNamespace(Manifests.Document d) {
        HasMetadata object = Manifests.parse(d);
        if (Manifests.namespaced(d)) {
            assertThat(object.getMetadata().getNamespace())
                    .as(d.toString())
                    .satisfiesAnyOf(
                            ns -> assertThat(ns).isIn(Manifests.NAMESPACES),
                            ns -> assertThat(ns).isEqualTo("openshift-config-managed"));
        } else {
            assertThat(object.getMetadata().getNamespace()).as(d.toString()).isNull();
        }
    }

    private static List<String> names(List<Manifests.Document> objects, String kindKey) {
        return objects.stream()
                .filter(d -> d.kindKey().equals(kindKey))
                .map(d -> d.tree().path("metadata").path("namespace").asText() + "/" + d.name())
                .toList();
    }

    private static <T extends HasMetadata> List<T> typed(
            List<Manifests.Document> objects, String kindKey, Class<T> type) {
        return objects.stream()
                .filter(d -> d.kindKey().equals(kindKey))
                .map(d -> Manifests.parse(d, type))
                .toList();
    }

    private static <T extends HasMetadata> T one(
            List<Manifests.Document> objects, String kindKey, String name, Class<T> type) {
        return typed(objects, kindKey, type).stream()
                .filter(o -> o.getMetadata().getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kindKey + " " + name + " rendered"));
    }

    private static Map<String, String> labels(JsonNode node) {
        Map<String, String> labels = new HashMap<>();
        node.fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        return labels;
    }

    /** The objects kustomize renders from deploy/{@code dir}. */
    static List<Manifests.Document> render(String dir) throws IOException, InterruptedException {
        Optional<List<String>> command = kustomize();
        assumeTrue(
                command.isPresent(),
                "skipped: no kustomize v4+ here (neither `kustomize` nor `kubectl kustomize`; Debian's kubectl 1.20"
                        + " has kustomize v2, which knows no `patches`)");
        Path target = Manifests.DEPLOY.resolve(dir);
        List<String> args = new ArrayList<>(command.get());
        args.add(target.toString());
        Path out = Files.createTempFile("kustomize-", ".yaml");
        try {
            Process p = new ProcessBuilder(args)
                    .redirectOutput(out.toFile())
                    .redirectError(ProcessBuilder.Redirect.PIPE)
                    .start();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("kustomize finishes").isTrue();
            assertThat(p.exitValue()).as("kustomize build %s: %s", dir, err).isZero();
            return Manifests.documents(out).stream()
                    .map(d -> new Manifests.Document(target.resolve("kustomization.yaml"), d.index(), d.tree()))
                    .toList();
        } finally {
            Files.deleteIfExists(out);
        }
    }

    private static Optional<List<String>> kustomize() {
        Optional<String> own = output(List.of("kustomize", "version"));
        if (own.isPresent() && major(own.get()) >= 4) {
            return Optional.of(List.of("kustomize", "build"));
        }
        Optional<String> kubectl = output(List.of("kubectl", "version", "--client"));
        Matcher m = Pattern.compile("Kustomize Version: (v\\S+)").matcher(kubectl.orElse(""));
        if (m.find() && major(m.group(1)) >= 4) {
            return Optional.of(List.of("kubectl", "kustomize"));
        }
        return Optional.empty();
    }

    private static int major(String version) {
        Matcher m = Pattern.compile("v(\\d+)\\.").matcher(version);
        return m.find() ? Integer.parseInt(m.group(1)) : 0;
    }

    private static Optional<String> output(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 ? Optional.of(text) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
