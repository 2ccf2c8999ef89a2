package io.mcdhooks.hooks.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.mcdhooks.hooks.registry.FakeRegistry.Answer;
import io.mcdhooks.hooks.registry.FakeRegistry.Seen;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The registry client against a registry that misbehaves: every bad answer is a named failure of
 * the right kind (transient, denied, not found, bad content), never a crash and never a success.
 */
class RegistryClientTest {

    private static final String KERNEL = "5.14.0-427.13.1.el9_4.x86_64";
    private static final String BASIC = "Basic " + Base64.getEncoder().encodeToString("robot:pw".getBytes());

    private FakeRegistry registry;
    private FakeImage image;

    @BeforeEach
    void start() throws Exception {
        registry = new FakeRegistry();
        image = FakeImage.of("os/rhcos", Map.of("amd64", Map.of("ostree.linux", KERNEL)))
                .servedBy(registry, "4.16");
    }

    @AfterEach
    void stop() {
        registry.close();
    }

    private RegistryClient client(String secretJson) {
        PullSecret secret = secretJson == null
                ? PullSecret.none()
                : PullSecret.parse(secretJson.getBytes(StandardCharsets.UTF_8), "secret", new ObjectMapper());
        return client(secret, RegistriesConf.parse(registry.conf(), "registries.conf"));
    }

    private static RegistryClient client(PullSecret secret, RegistriesConf conf) {
        try {
            return new RegistryClient(
                    RegistryClient.httpClient(SSLContext.getDefault()), secret, conf, Clock.systemUTC());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private String secret() {
        return "{\"auths\":{\"" + registry.host() + "\":{\"auth\":\""
                + Base64.getEncoder().encodeToString("robot:pw".getBytes()) + "\"}}}";
    }

    private ImageReference ref(String reference) {
        return ImageReference.parse(registry.host() + "/" + image.repository + reference);
    }

    private String manifestPath(Object reference) {
        return "/v2/" + image.repository + "/manifests/" + reference;
    }

    @Test
    void readsATagResolvedToItsDigestThenThePlatformManifestAndTheConfig() {
        RegistryClient client = client(null);

        RegistryClient.Located top = client.manifest(ref(":4.16"));
        Manifest.Index index = (Manifest.Index) top.manifest();
        RegistryClient.Located amd64 = client.manifest(
                top.endpoint(), index.platform("amd64").orElseThrow().digest());
        ImageConfig config = client.config(amd64.endpoint(), ((Manifest.Image) amd64.manifest()).config());

        assertThat(top.digest()).isEqualTo(image.index);
        assertThat(config.labels()).containsEntry("ostree.linux", KERNEL);
        assertThat(config.architecture()).isEqualTo("amd64");
    }

    @Test
    void refusesAManifestOverFourMebibytesWhetherItSaysSoOrNot() {
        registry.on("GET", manifestPath("big"), Answer.endless(MediaTypes.OCI_INDEX, 5L << 20));
        byte[] declared = new byte[(4 << 20) + 1];
        registry.on("GET", manifestPath("declared"), Answer.bytes(MediaTypes.OCI_INDEX, declared));

        assertThatThrownBy(() -> client(null).manifest(ref(":big")))
                .isInstanceOf(RegistryException.BadContent.class)
                .hasMessageContaining("over the limit of " + RegistryClient.MAX_MANIFEST_BYTES);
        assertThatThrownBy(() -> client(null).manifest(ref(":declared")))
                .isInstanceOf(RegistryException.BadContent.class)
                .hasMessageContaining("is " + declared.length + " bytes, over the limit");
    }

    @Test
    void refusesMalformedAndUnknownManifests() {
        registry.on("GET", manifestPath("broken"), Answer.json(200, MediaTypes.OCI_INDEX, "{\"schemaVersion\":2,"));
        registry.on(
                "GET",
                manifestPath("artifact"),
                Answer.json(200, "application/vnd.example.thing+json", "{\"schemaVersion\":2}"));

        assertThatThrownBy(() -> client(null).manifest(ref(":broken")))
                .isInstanceOf(RegistryException.BadContent.class)
                .hasMessageContaining("is not JSON");
        assertThatThrownBy(() -> client(null).manifest(ref(":artifact")))
                .isInstanceOf(RegistryException.BadContent.class)
                .hasMessageContaining("application/vnd.example.thing+json");
    }

    @Test
    void refusesContentThatIsNotWhatItsDigestNames() {
        String other = image.indexJson.replace("amd64", "arm64");
        registry.on("GET", manifestPath(image.index), Answer.json(200, MediaTypes.OCI_INDEX, other));
        registry.on(
                "GET",
                manifestPath("lying"),
                Answer.json(200, MediaTypes.OCI_INDEX, other).with("Docker-Content-Digest", image.index.toString()));

        assertThatThrownBy(() -> client(null).manifest(ref("@" + image.index)))
                .isInstanceOf(RegistryException.BadContent.class)
                .hasMessageContaining("does not match its digest " + image.index);
        assertThatThrownBy(() -> client(null).manifest(ref(":lying")))
                .isInstanceOf(RegistryException.BadContent.class)
                .hasMessageContaining("does not match its digest");
    }

    @Test
    void refusesAConfigOfTheWrongTypeOrSize() {
        RegistryClient client = client(null);
        RegistryClient.Located amd64 =
                client.manifest(client.manifest(ref(":4.16")).endpoint(), image.manifests.get("amd64"));
        Descriptor config = ((Manifest.Image) amd64.manifest()).config();

        assertThatThrownBy(() -> client.config(
                        amd64.endpoint(),
                        new Descriptor("application/vnd.example.unknown", config.digest(), config.size(), null)))
                .isInstanceOf(RegistryException.BadContent.class)
                .hasMessageContaining("not an image config");
        assertThatThrownBy(() -> client.config(
                        amd64.endpoint(), new Descriptor(config.mediaType(), config.digest(), config.size() + 1, null)))
                .isInstanceOf(RegistryException.BadContent.class)
                .hasMessageContaining("its descriptor says " + (config.size() + 1));
    }

    @Test
    void aMissingImageIsNotFoundAndAHeadSaysItIsAbsent() {
        assertThatThrownBy(() -> client(null).manifest(ref(":4.17")))
                .isInstanceOf(RegistryException.NotFound.class)
                .hasMessageContaining("HTTP 404")
                .hasMessageContaining("NAME_UNKNOWN");
        assertThat(client(null).head(ref(":4.17"))).isEmpty();
    }

    @Test
    void serverTroubleAndThrottlingAreTransientNamingTheStatus() {
        registry.on("GET", manifestPath("down"), Answer.of(500));
        registry.on("GET", manifestPath("busy"), Answer.of(429).with("Retry-After", "30"));

        assertThatThrownBy(() -> client(null).manifest(ref(":down")))
                .isInstanceOf(RegistryException.Unavailable.class)
                .hasMessageContaining("HTTP 500");
        assertThatThrownBy(() -> client(null).manifest(ref(":busy")))
                .isInstanceOf(RegistryException.Unavailable.class)
                .hasMessageContaining("HTTP 429")
                .hasMessageContaining("Retry-After 30");
    }

    @Test
    void aRegistryThatDoesNotAnswerIsTransient() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String host = "127.0.0.1:" + port;
        RegistryClient client = client(
                PullSecret.none(),
                RegistriesConf.parse("[[registry]]\nlocation = \"" + host + "\"\ninsecure = true\n", "r.conf"));

        assertThatThrownBy(() -> client.manifest(ImageReference.parse(host + "/os:1")))
                .isInstanceOf(RegistryException.Unavailable.class)
                .hasMessageContaining("GET " + host + " failed");
    }

    @Test
    void answersABasicChallengeWithThePullSecretAndIsDeniedWithoutOrWithWrongCredentials() {
        Answer challenge = Answer.of(401).with("WWW-Authenticate", "Basic realm=\"fake\"");
        registry.on("GET", manifestPath(image.index), challenge);
        registry.onAuthorized(
                "GET", manifestPath(image.index), BASIC, Answer.json(200, MediaTypes.OCI_INDEX, image.indexJson));
        String wrong = "{\"auths\":{\"" + registry.host() + "\":{\"username\":\"robot\",\"password\":\"nope\"}}}";

        assertThat(client(secret()).manifest(ref("@" + image.index)).digest()).isEqualTo(image.index);
        assertThatThrownBy(() -> client(null).manifest(ref("@" + image.index)))
                .isInstanceOf(RegistryException.AccessDenied.class)
                .hasMessageContaining("asks for basic auth, and the pull secrets hold no user and password");
        assertThatThrownBy(() -> client(wrong).manifest(ref("@" + image.index)))
                .isInstanceOf(RegistryException.AccessDenied.class)
                .hasMessageContaining("refused the credentials (HTTP 401");
    }

    @Test
    void answersABearerChallengeAtTheRealmAndKeepsTheTokenForTheNextCall() {
        Answer challenge = Answer.of(401)
                .with(
                        "WWW-Authenticate",
                        "Bearer realm=\"" + registry.url() + "/token\",service=\"fake\",scope=\"repository:"
                                + image.repository + ":pull\"");
        for (Object reference : List.of("4.16", image.index)) {
            registry.on("GET", manifestPath(reference), challenge);
            registry.onAuthorized(
                    "GET",
                    manifestPath(reference),
                    "Bearer t-1",
                    Answer.json(200, MediaTypes.OCI_INDEX, image.indexJson));
        }
        registry.onAuthorized(
                "GET",
                "/token?service=fake&scope=repository%3Aos%2Frhcos%3Apull",
                BASIC,
                Answer.json(200, "application/json", "{\"token\":\"t-1\",\"expires_in\":300}"));
        RegistryClient client = client(secret());

        assertThat(client.manifest(ref(":4.16")).digest()).isEqualTo(image.index);
        assertThat(client.manifest(ref("@" + image.index)).digest()).isEqualTo(image.index);

        assertThat(registry.seen()).filteredOn(s -> s.path().equals("/token")).hasSize(1);
        assertThat(registry.seen())
                .filteredOn(s -> s.path().equals(manifestPath(image.index)))
                .extracting(Seen::authorization)
                .as("the cached token, sent straight away")
                .containsExactly("Bearer t-1");
    }

    @Test
    void exchangesAnIdentityTokenAtTheRealmByOauth2Post() {
        registry.on(
                "GET",
                manifestPath(image.index),
                Answer.of(401)
                        .with("WWW-Authenticate", "Bearer realm=\"" + registry.url() + "/oauth\",service=\"fake\""));
        registry.onAuthorized(
                "GET",
                manifestPath(image.index),
                "Bearer a-1",
                Answer.json(200, MediaTypes.OCI_INDEX, image.indexJson));
        registry.on("POST", "/oauth", Answer.json(200, "application/json", "{\"access_token\":\"a-1\"}"));
        RegistryClient client = client("{\"auths\":{\"" + registry.host() + "\":{\"identitytoken\":\"refresh-9\"}}}");

        assertThat(client.manifest(ref("@" + image.index)).digest()).isEqualTo(image.index);

        assertThat(registry.seen())
                .filteredOn(s -> s.path().equals("/oauth"))
                .singleElement()
                .satisfies(s -> assertThat(s.body())
                        .contains("grant_type=refresh_token")
                        .contains("refresh_token=refresh-9")
                        .contains("scope=repository%3Aos%2Frhcos%3Apull")
                        .contains("service=fake"));
    }

    @Test
    void aTokenServerThatRefusesIsAccessDeniedNamingTheUser() {
        registry.on(
                "GET",
                manifestPath("4.16"),
                Answer.of(401).with("WWW-Authenticate", "Bearer realm=\"" + registry.url() + "/token\""));
        registry.on("GET", "/token", Answer.of(403));

        assertThatThrownBy(() -> client(secret()).manifest(ref(":4.16")))
                .isInstanceOf(RegistryException.AccessDenied.class)
                .hasMessageContaining("refused user robot for scope repository:os/rhcos:pull (HTTP 403)");
    }

    @Test
    void followsABlobRedirectToAnotherHostWithoutTheAuthorizationHeader() throws Exception {
        try (FakeRegistry cdn = new FakeRegistry()) {
            byte[] configBytes = FakeImage.bytes(image.configJson.get("amd64"));
            String blob = "/v2/" + image.repository + "/blobs/" + image.configs.get("amd64");
            cdn.on("GET", "/cdn/config", Answer.bytes("application/octet-stream", configBytes));
            registry.on("GET", blob, Answer.of(401).with("WWW-Authenticate", "Basic realm=\"fake\""));
            registry.onAuthorized(
                    "GET", blob, BASIC, Answer.of(307).with("Location", cdn.url() + "/cdn/config?sig=abc"));
            RegistryClient client = client(secret());
            RegistryClient.Located top = client.manifest(ref(":4.16"));

            ImageConfig config = client.config(
                    top.endpoint(),
                    new Descriptor(MediaTypes.OCI_CONFIG, image.configs.get("amd64"), configBytes.length, null));

            assertThat(config.labels()).containsEntry("ostree.linux", KERNEL);
            assertThat(registry.seen())
                    .filteredOn(s -> s.path().equals(blob))
                    .extracting(Seen::authorization)
                    .containsExactly(null, BASIC);
            assertThat(cdn.seen()).singleElement().satisfies(s -> {
                assertThat(s.query()).isEqualTo("sig=abc");
                assertThat(s.authorization())
                        .as("no credentials for another host")
                        .isNull();
            });
        }
    }

    @Test
    void refusesRedirectLoopsAndRedirectsWithoutALocation() {
        registry.on("GET", manifestPath("loop"), Answer.of(302).with("Location", manifestPath("loop")));
        registry.on("GET", manifestPath("nowhere"), Answer.of(307));

        assertThatThrownBy(() -> client(null).manifest(ref(":loop")))
                .isInstanceOf(RegistryException.BadContent.class)
                .hasMessageContaining("more than " + RegistryClient.MAX_REDIRECTS + " redirects");
        assertThatThrownBy(() -> client(null).manifest(ref(":nowhere")))
                .isInstanceOf(RegistryException.BadContent.class)
                .hasMessageContaining("without a Location");
        assertThat(registry.seen())
                .filteredOn(s -> s.path().endsWith("/loop"))
                .hasSize(RegistryClient.MAX_REDIRECTS + 1);
    }

    @Test
    void triesTheMirrorsInOrderThenTheSourceAndReportsEveryFailure() throws Exception {
        try (FakeRegistry mirror = new FakeRegistry()) {
            mirror.on("GET", "/v2/mirrored/os/rhcos/manifests/" + image.index, Answer.of(503));
            mirror.on("GET", "/v2/mirrored/os/rhcos/manifests/4.99", Answer.of(503));
            String conf = "[[registry]]\nprefix = \"quay.example/os\"\nlocation = \"" + registry.host() + "/os\"\n"
                    + "insecure = true\n[[registry.mirror]]\nlocation = \"" + mirror.host() + "/mirrored/os\"\n"
                    + "insecure = true\n";
            RegistryClient client = client(PullSecret.none(), RegistriesConf.parse(conf, "r.conf"));

            RegistryClient.Located found =
                    client.manifest(ImageReference.parse("quay.example/os/rhcos@" + image.index));

            assertThat(found.endpoint().mirror()).isFalse();
            assertThat(found.endpoint().reference().name()).isEqualTo(registry.host() + "/os/rhcos");
            assertThat(mirror.seen())
                    .extracting(Seen::path)
                    .containsExactly("/v2/mirrored/os/rhcos/manifests/" + image.index);

            // Not found at the source and trouble at the mirror: nothing is known for sure.
            assertThatThrownBy(() -> client.manifest(ImageReference.parse("quay.example/os/rhcos:4.99")))
                    .isInstanceOf(RegistryException.Unavailable.class)
                    .hasMessageContaining("mirror " + mirror.host())
                    .hasMessageContaining("HTTP 503")
                    .hasMessageContaining("HTTP 404");
        }
    }

    @Test
    void aBlockedRegistryWithoutAMirrorIsDenied() {
        RegistryClient client = client(
                PullSecret.none(),
                RegistriesConf.parse("[[registry]]\nlocation = \"quay.example\"\nblocked = true\n", "r"));

        assertThatThrownBy(() -> client.manifest(ImageReference.parse("quay.example/os:1")))
                .isInstanceOf(RegistryException.AccessDenied.class)
                .hasMessageContaining("blocked by the registries configuration");
    }

    @Test
    void aHeadWithoutADigestHeaderIsResolvedByReadingTheManifest() {
        registry.on("HEAD", manifestPath("4.16"), Answer.of(200));

        assertThat(client(null).head(ref(":4.16")))
                .hasValueSatisfying(p -> assertThat(p.digest()).isEqualTo(image.index));
    }
}
