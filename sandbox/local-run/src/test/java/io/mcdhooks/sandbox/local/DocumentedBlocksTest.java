package io.mcdhooks.sandbox.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.mcdhooks.bridge.overrides.GateOverride;
import io.mcdhooks.bridge.overrides.GateOverrideSpec;
import io.mcdhooks.hooks.examples.ModuleCatalog;
import io.mcdhooks.sandbox.local.DocBlocks.Block;
import io.mcdhooks.schemas.Outcome;
import io.mcdhooks.schemas.Stage;
import io.mcdhooks.schemas.Verdict;
import io.mcdhooks.schemas.kafka.KafkaSettings;
import io.mcdhooks.schemas.kafka.Topics;
import io.mcdhooks.schemas.sign.VerdictSignatures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every fenced block of the README and of docs/ is claimed here: run as written by a named test,
 * or checked against the code and manifests it talks about where it cannot run here (no OpenShift
 * cluster, no image builder). A new block fails {@link #everyBlockIsClaimedExactlyOnce} until it
 * gets a claim.
 */
class DocumentedBlocksTest {

    private static final Path REPO = DocBlocks.REPO;

    /** A block, by file and the start of its first line, and what checks it. */
    private record Claim(String file, String start, String how, Consumer<Block> check) {

        boolean matches(Block block) {
            return block.file().equals(file) && block.text().startsWith(start);
        }
    }

    private static final List<Claim> CLAIMS = List.of(
            runBy("README.md", "./run-local --scenario", "DocumentedExamplesIT"),
            new Claim(
                    "README.md",
                    "mvn -B verify",
                    "the command .ci/run runs",
                    b -> assertThat(read(".ci/run").lines()).contains(b.text().trim())),
            new Claim("docs/architecture.md", "             Kubernetes API", "a diagram: names every topic", b -> {
                for (String topic : List.of(
                        Topics.LIFECYCLE,
                        Topics.GATE_REQUESTS,
                        Topics.VERDICTS,
                        Topics.GATE_DECISIONS,
                        Topics.DEAD_LETTER)) {
                    assertThat(b.text()).contains(topic.substring("mcdhooks.".length()));
                }
            }),
            checkedIn(
                    "docs/hook-authors-guide.md",
                    "#!/bin/sh\n# An exec hook",
                    "hook-runner/src/test/java/io/mcdhooks/hooks/examples/HookAuthorsGuideTest.java",
                    "<!-- example: "),
            runBy("docs/hook-authors-guide.md", "mvn -q -pl hook-runner", "DocumentedExamplesIT"),
            checkedIn(
                    "docs/hook-authors-guide.md",
                    "{\"specversion\"",
                    "hook-runner/src/test/java/io/mcdhooks/hooks/examples/HookAuthorsGuideTest.java",
                    "block(\"json\", \"{\\\"specversion\\\"\")"),
            checkedIn(
                    "docs/hook-authors-guide.md",
                    "{\"outcome\"",
                    "hook-runner/src/test/java/io/mcdhooks/hooks/examples/HookAuthorsGuideTest.java",
                    "block(\"json\", \"{\\\"outcome\\\"\")"),
            checkedIn(
                    "docs/hook-authors-guide.md",
                    "public interface Hook {",
                    "hook-runner/src/test/java/io/mcdhooks/hooks/examples/HookAuthorsGuideTest.java",
                    "block(\"java\", \"public interface Hook {\")"),
            checkedIn(
                    "docs/hook-authors-guide.md",
                    "package io.mcdhooks.hooks.examples;",
                    "hook-runner/src/test/java/io/mcdhooks/hooks/examples/HookAuthorsGuideTest.java",
                    "<!-- example: "),
            runBy("docs/hook-authors-guide.md", "# /etc/mcdhooks/kmod/modules.yaml", "DocumentedExamplesIT"),
            runBy("docs/hook-authors-guide.md", "# /etc/mcdhooks/kmod/registries.conf", "DocumentedExamplesIT"),
            checkedIn(
                    "docs/hook-authors-guide.md",
                    "{\"auths\"",
                    "sandbox/local-run/src/test/java/io/mcdhooks/sandbox/local/DocumentedExamplesIT.java",
                    "DocBlocks.find(\"docs/hook-authors-guide.md\", \"{\\\"auths\\\"\")"),
            runBy(
                    "docs/hook-authors-guide.md",
                    "export KAFKA_BOOTSTRAP_SERVERS=localhost:9092",
                    "DocumentedExamplesIT"),
            new Claim("docs/hook-authors-guide.md", "{\n", "read by ModuleCatalog as the guide explains", b -> {
                try {
                    ModuleCatalog catalog = ModuleCatalog.parse(b.text().getBytes(StandardCharsets.UTF_8));
                    String kernel = catalog.images().get("quay.io/example/rhcos@sha256:aaaa");
                    assertThat(kernel).isEqualTo("5.14.0-427.13.1.el9_4.x86_64");
                    assertThat(catalog.modules().get(kernel).get("default")).containsExactly("nvidia", "ice");
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            }),
            checkedIn(
                    "docs/hook-authors-guide.md",
                    "#!/bin/sh\n# A hook with no SDK",
                    "hook-runner/src/test/java/io/mcdhooks/hooks/examples/HookAuthorsGuideTest.java",
                    "<!-- example: "),
            checkedIn(
                    "docs/hook-authors-guide.md",
                    "BOOTSTRAP=kafka:9092 FREEZE=",
                    "hook-runner/src/test/java/io/mcdhooks/hooks/examples/KcatHookIT.java",
                    "\"BOOTSTRAP\""),
            new Claim(
                    "docs/hook-authors-guide.md",
                    "openssl genpkey",
                    "openssl lines run by signingKeysMadeAsTheGuideSays",
                    b -> assertThat(b.lines()).anyMatch(l -> l.contains("MCDHOOKS_SIGNING_KEY_FILE"))),
            runBy("docs/local-run.md", "./run-local --scenario", "DocumentedExamplesIT"),
            runBy("docs/local-run.md", "./run-local --kubeconfig", "DocumentedExamplesIT"),
            new Claim(
                    "docs/local-run.md",
                    "mvn -B -q -pl sandbox/local-run -am verify",
                    "the module's own tests, which `mvn -B verify` runs",
                    b -> {
                        assertThat(read("pom.xml")).contains("<module>sandbox/local-run</module>");
                        Matcher its = Pattern.compile("-Dit.test='([^']+)'").matcher(b.text());
                        assertThat(its.find()).isTrue();
                        for (String test : its.group(1).split(",")) {
                            assertThat(REPO.resolve("sandbox/local-run/src/test/java/io/mcdhooks/sandbox/local/" + test
                                            + ".java"))
                                    .isRegularFile();
                        }
                    }),
            runBy("docs/observability.md", "bridge/mcdhooks", "DocumentedExamplesIT"),
            new Claim(
                    "docs/observability.md",
                    "$ bridge/mcdhooks plan",
                    "PlanIT runs the command on the MCO simulator; the block shows what PlanCommand prints",
                    b -> {
                        assertThat(REPO.resolve("bridge/src/test/java/io/mcdhooks/bridge/cli/PlanIT.java"))
                                .isRegularFile();
                        String printer = read("bridge/src/main/java/io/mcdhooks/bridge/cli/PlanCommand.java");
                        assertThat(printer)
                                .contains("\"the MCC takes up to %d node(s) at a time")
                                .contains("\"gates\"");
                        assertThat(b.text())
                                .contains("the MCC takes up to 1 node(s) at a time")
                                .contains("PRE-UPDATE")
                                .contains("enforced: the pool stays paused until it passes");
                    }),
            new Claim(
                    "docs/operations.md",
                    "podman build",
                    "no image builder here: the files and mains it builds exist",
                    b -> {
                        Matcher files = Pattern.compile("-f (\\S+)").matcher(b.text());
                        int n = 0;
                        for (; files.find(); n++) {
                            String containerfile = read(files.group(1));
                            Matcher main = Pattern.compile("\"(io\\.mcdhooks\\.[\\w.]+\\.Main)\"")
                                    .matcher(containerfile);
                            assertThat(main.find())
                                    .as("%s names its main class", files.group(1))
                                    .isTrue();
                            assertThat(loads(main.group(1))).as(main.group(1)).isTrue();
                        }
                        assertThat(n).isEqualTo(2);
                    }),
            new Claim(
                    "docs/operations.md",
                    "KAFKA_BOOTSTRAP_SERVERS=",
                    "read by KafkaSettings; names the mounted Secrets",
                    b -> {
                        Map<String, String> env = new LinkedHashMap<>();
                        b.lines().stream()
                                .map(DocBlocks::command)
                                .forEach(l -> env.put(l.substring(0, l.indexOf('=')), l.substring(l.indexOf('=') + 1)));
                        Map<String, String> client =
                                KafkaSettings.fromEnvironment(env).asMap();
                        assertThat(client)
                                .containsEntry("security.protocol", "SSL")
                                .containsEntry("ssl.truststore.type", "PEM")
                                .containsEntry("bootstrap.servers", "mcdhooks-kafka-bootstrap.mcdhooks.svc:9093");
                        String deployment = read("deploy/base/bridge/deployment.yaml");
                        assertThat(deployment)
                                .contains("mountPath: /etc/mcdhooks/kafka-ca")
                                .contains("mountPath: /etc/mcdhooks/kafka-user")
                                .contains("mcdhooks-cluster-ca-cert");
                        assertThat(b.text()).contains("# Secret mcdhooks-cluster-ca-cert");
                    }),
            checkedIn(
                    "docs/operations.md",
                    "oc get events",
                    "sandbox/local-run/src/test/java/io/mcdhooks/sandbox/local/DocumentedExamplesIT.java",
                    "DocBlocks.find(\"docs/operations.md\", \"oc get events\")"),
            new Claim(
                    "docs/operations.md",
                    "oc adm groups new mcdhooks:break-glass",
                    "no OpenShift here: the group, the marker and the taint are the shipped policy's and the code's",
                    b -> {
                        String policy = read("deploy/admission/v1/post-update-hold-policy.yaml");
                        assertThat(policy).contains("'mcdhooks:break-glass'").contains("'mcdhooks.io/hold'");
                        assertThat(b.text())
                                .contains("--as-group=mcdhooks:break-glass")
                                .contains("mcdhooks.io/hold-")
                                .contains("mcdhooks.io/post-update-gate-");
                    }),
            new Claim(
                    "docs/operations.md",
                    "oc apply -f deploy/admission/v1/post-update-hold-policy.yaml",
                    "no OpenShift here: every file applied exists",
                    b -> Pattern.compile("-f (\\S+)")
                            .matcher(b.text())
                            .results()
                            .forEach(m -> assertThat(REPO.resolve(m.group(1))).isRegularFile())),
            new Claim(
                    "docs/operations.md",
                    "oc -n mcdhooks-kafka extract",
                    "no OpenShift here: the Secrets, user and topic exist",
                    b -> {
                        assertThat(read("deploy/base/kafka/users.yaml")).contains("name: mcdhooks-observer");
                        assertThat(read("deploy/base/kafka/kafka.yaml"))
                                .contains("kind: Kafka\nmetadata:\n  name: mcdhooks\n")
                                .contains("port: 9093");
                        assertThat(b.text())
                                .contains("secret/mcdhooks-observer")
                                .contains("secret/mcdhooks-cluster-ca-cert")
                                .contains("mcdhooks-kafka-bootstrap.mcdhooks-kafka.svc:9093")
                                .contains("-t " + Topics.GATE_DECISIONS);
                    }),
            new Claim(
                    "docs/operations.md",
                    "bridge/mcdhooks override --gate <gate id>",
                    "the override of docs/observability.md's block, which DocumentedExamplesIT runs",
                    b -> assertThat(DocBlocks.find("docs/observability.md", "bridge/mcdhooks")
                                    .text())
                            .contains(b.text()
                                    .trim()
                                    .replace("<gate id>", "prod-1/post-update/worker-3/rendered-worker-2f…")
                                    .replace(", INC-4711", ""))),
            new Claim(
                    "docs/operations.md",
                    "bridge/mcdhooks override --gate <failed gate id> --stop-rollback",
                    "no OpenShift here: the CLI has these flags; PoolRollbackIT applies the overrides they create",
                    b -> {
                        String command = read("bridge/src/main/java/io/mcdhooks/bridge/cli/OverrideCommand.java");
                        for (String flag : List.of("--gate", "--stop-rollback", "--resume-rollback", "--reason")) {
                            assertThat(b.text()).contains(flag + " ");
                            assertThat(command).contains("names = \"" + flag + "\"");
                        }
                    }),
            new Claim(
                    "docs/operations.md",
                    "apiVersion: mcdhooks.io/v1alpha1\nkind: GateOverride",
                    "no OpenShift here: reads as the GateOverride the CLI creates",
                    b -> {
                        GateOverride override = new KubernetesSerialization().unmarshal(b.text(), GateOverride.class);
                        assertThat(override.getMetadata().getNamespace()).isEqualTo("mcdhooks");
                        assertThat(override.getSpec().getAction()).isEqualTo(GateOverrideSpec.Action.Release);
                        assertThat(override.getSpec().getRequestedBy()).isEqualTo("alice");
                        assertThat(override.getSpec().getGate()).isNotBlank();
                        assertThat(override.getSpec().getReason()).isNotBlank();
                    }),
            faultsCommand("README.md", "mvn -B -pl sandbox/fault-injection"),
            faultsCommand("docs/reliability.md", "# short form"),
            benchmarkCommand("README.md"),
            benchmarkCommand(
                    "docs/benchmarks.md", "mvn -B -q -pl sandbox/benchmarks -am -DskipTests -Pbenchmark verify\n"),
            benchmarkCommand(
                    "docs/benchmarks.md", "mvn -B -q -pl sandbox/benchmarks -am -DskipTests -Pbenchmark verify \\"),
            new Claim("docs/wire-contract.md", "mcdhooks-verdict-v2", "the payload VerdictSignatures signs", b -> {
                Instant at = Instant.parse("2026-11-30T10:15:30Z");
                Verdict verdict = new Verdict(
                        "prod-1",
                        "prod-1/pre-update/worker-3/rendered-worker-2f",
                        2,
                        "kmod-check",
                        Stage.PRE_UPDATE,
                        "worker",
                        "worker-3",
                        "rendered-worker-2f",
                        Outcome.PASS,
                        "ModulesReady",
                        "all modules built",
                        null,
                        at);
                // A signer in another language writes producedAt its own way: the payload has that text
                String written = "2026-11-30T15:15:30+05:00";
                List<String> signed = new String(VerdictSignatures.payload(verdict, written), StandardCharsets.UTF_8)
                        .lines()
                        .toList();
                assertThat(signed)
                        .containsExactly(
                                "mcdhooks-verdict-v2",
                                "prod-1",
                                verdict.gateId(),
                                "2",
                                "kmod-check",
                                "PASS",
                                "ModulesReady",
                                written,
                                "all modules built");
                assertThat(b.lines())
                        .containsExactly(
                                "mcdhooks-verdict-v2",
                                "<cluster>",
                                "<gateId>",
                                "<attempt>",
                                "<hook>",
                                "<outcome>",
                                "<reason>",
                                "<producedAt, exactly as in the body>",
                                "<message, empty if none; last, newlines and all>");
            }));

    @Test
    void everyBlockIsClaimedExactlyOnce() {
        List<Block> blocks = DocBlocks.all();
        List<String> unclaimed = new ArrayList<>();
        for (Block block : blocks) {
            long claims = CLAIMS.stream().filter(c -> c.matches(block)).count();
            if (claims != 1) {
                unclaimed.add(block + " has " + claims + " claims");
            }
        }
        assertThat(unclaimed)
                .as("blocks without exactly one claim in %s", getClass().getSimpleName())
                .isEmpty();
        assertThat(CLAIMS)
                .allSatisfy(c -> assertThat(blocks.stream().filter(c::matches))
                        .as("blocks matching %s %s", c.file(), c.start())
                        .hasSize(1));
    }

    @TestFactory
    Stream<DynamicTest> eachBlockHoldsAsDocumented() {
        List<Block> blocks = DocBlocks.all();
        return CLAIMS.stream()
                .map(c -> DynamicTest.dynamicTest(
                        c.file() + ": " + c.start().lines().findFirst().orElse("") + " (" + c.how() + ")",
                        () -> c.check()
                                .accept(blocks.stream()
                                        .filter(c::matches)
                                        .findFirst()
                                        .orElseThrow())));
    }

    @Test
    void signingKeysMadeAsTheGuideSaysSignVerdictsTheGatekeeperAccepts(@TempDir Path dir) throws Exception {
        assumeTrue(onPath("openssl"), "openssl is not installed; the guide's key commands cannot run");
        Block block = DocBlocks.find("docs/hook-authors-guide.md", "openssl genpkey");
        for (String line :
                block.lines().stream().filter(l -> l.startsWith("openssl ")).toList()) {
            Process openssl = new ProcessBuilder("bash", "-c", line)
                    .directory(dir.toFile())
                    .redirectErrorStream(true)
                    .start();
            String output = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(openssl.waitFor()).as(line + ": " + output).isZero();
        }
        // The keys Secret's entry is <hook>.<kid>, the kid the one the runner is given
        assertThat(block.text())
                .contains("--from-file=kmod-check.2026-11=kmod-2026-11.pub")
                .contains("MCDHOOKS_SIGNING_KEY_ID=2026-11");

        var key = VerdictSignatures.privateKey(Files.readString(dir.resolve("kmod-2026-11.pem")));
        var publicKey = VerdictSignatures.publicKey(Files.readString(dir.resolve("kmod-2026-11.pub")));
        Verdict verdict = new Verdict(
                "prod-1",
                "prod-1/pre-update/worker-3/rendered-worker-2f",
                1,
                "kmod-check",
                Stage.PRE_UPDATE,
                "worker",
                "worker-3",
                "rendered-worker-2f",
                Outcome.PASS,
                "ModulesReady",
                null,
                null,
                Instant.now());
        String jws = VerdictSignatures.sign(verdict, key, "2026-11");
        assertThat(VerdictSignatures.verify(verdict, jws, Map.of("2026-11", publicKey)))
                .isEqualTo(VerdictSignatures.Check.VALID);
        // and a key that is not the Secret's does not verify
        var other = KeyPairGenerator.getInstance("Ed25519").generateKeyPair().getPublic();
        assertThat(VerdictSignatures.verify(verdict, jws, Map.of("2026-11", other)))
                .isEqualTo(VerdictSignatures.Check.BAD_SIGNATURE);
    }

    /** The short form is what `mvn -B verify` runs; the properties it names are the suite's. */
    private static Claim faultsCommand(String file, String start) {
        return new Claim(file, start, "FaultInjectionIT, which `mvn -B verify` runs; its properties exist", b -> {
            assertThat(read("pom.xml")).contains("<module>sandbox/fault-injection</module>");
            String suite =
                    read("sandbox/fault-injection/src/test/java/io/mcdhooks/sandbox/faults/FaultInjectionIT.java");
            assertThat(b.text()).contains("-Dit.test=FaultInjectionIT");
            Pattern.compile("-D(faults\\.[a-z]+)=")
                    .matcher(b.text())
                    .results()
                    .map(m -> m.group(1))
                    .forEach(property -> assertThat(suite)
                            .as("FaultInjectionIT reads %s", property)
                            .contains("\"" + property + "\""));
        });
    }

    private static Claim benchmarkCommand(String file) {
        return benchmarkCommand(file, "mvn -B -q -pl sandbox/benchmarks");
    }

    /**
     * The full benchmark takes minutes and wants a quiet machine, so CI does not run it as written:
     * BenchmarksSmokeIT runs the same main at toy sizes. Here: the profile and every flag exist.
     */
    private static Claim benchmarkCommand(String file, String start) {
        return new Claim(file, start, "the profile and flags exist; BenchmarksSmokeIT runs the same main", b -> {
            assertThat(read("sandbox/benchmarks/pom.xml")).contains("<id>benchmark</id>");
            assertThat(REPO.resolve(
                            "sandbox/benchmarks/src/test/java/io/mcdhooks/sandbox/bench/BenchmarksSmokeIT.java"))
                    .isRegularFile();
            String main = read("sandbox/benchmarks/src/main/java/io/mcdhooks/sandbox/bench/BenchMain.java");
            Pattern.compile("(--[a-z][a-z-]*)=")
                    .matcher(b.text())
                    .results()
                    .map(m -> m.group(1))
                    .forEach(flag ->
                            assertThat(main).as("BenchMain declares %s", flag).contains("\"" + flag));
        });
    }

    private static Claim runBy(String file, String start, String test) {
        return checkedIn(
                file,
                start,
                "sandbox/local-run/src/test/java/io/mcdhooks/sandbox/local/" + test + ".java",
                "DocBlocks.find(\"" + file + "\", \"" + start);
    }

    /** Claimed by another test, whose source must show that it reads or runs this block. */
    private static Claim checkedIn(String file, String start, String testSource, String evidence) {
        return new Claim(
                file,
                start,
                "by " + Path.of(testSource).getFileName(),
                b -> assertThat(read(testSource)).as(testSource).contains(evidence));
    }

    private static String read(String path) {
        try {
            return Files.readString(REPO.resolve(path));
        } catch (IOException e) {
            throw new AssertionError("cannot read " + path, e);
        }
    }

    private static boolean loads(String className) {
        try {
            Class.forName(className, false, DocumentedBlocksTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static boolean onPath(String command) {
        return Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
                .anyMatch(dir -> Files.isExecutable(Path.of(dir, command)));
    }
}
