package io.mcdhooks.sandbox.registry;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A throw-away CA and a server certificate it signed for {@code localhost} and {@code 127.0.0.1},
 * made with the JDK's own {@code keytool}, so nothing but a JDK is needed. The files are PEM, as the
 * registry reads them: {@link #caFile()}, {@link #certificateFile()}, {@link #keyFile()} (PKCS#8).
 */
public final class RegistryTls {

    private static final char[] PASSWORD = "changeit".toCharArray();

    private final Path dir;
    private final X509Certificate ca;
    private final PrivateKey caKey;
    private final X509Certificate server;
    private final PrivateKey serverKey;

    private RegistryTls(Path dir, X509Certificate ca, PrivateKey caKey, X509Certificate server, PrivateKey serverKey) {
        this.dir = dir;
        this.ca = ca;
        this.caKey = caKey;
        this.server = server;
        this.serverKey = serverKey;
    }

    /** Generates the CA and the server certificate into {@code dir} (about a second: four keytool runs). */
    public static RegistryTls generate(Path dir) {
        try {
            Files.createDirectories(dir);
            Path caStore = dir.resolve("ca.p12");
            Path serverStore = dir.resolve("server.p12");
            Path request = dir.resolve("server.csr");
            Path signed = dir.resolve("server.crt");
            keytool(
                    dir,
                    "-genkeypair",
                    "-alias",
                    "ca",
                    "-keyalg",
                    "EC",
                    "-groupname",
                    "secp256r1",
                    "-dname",
                    "CN=mcdhooks test CA",
                    "-ext",
                    "bc:c",
                    "-validity",
                    "7",
                    "-keystore",
                    caStore.toString());
            keytool(
                    dir,
                    "-genkeypair",
                    "-alias",
                    "server",
                    "-keyalg",
                    "EC",
                    "-groupname",
                    "secp256r1",
                    "-dname",
                    "CN=localhost",
                    "-validity",
                    "7",
                    "-keystore",
                    serverStore.toString());
            keytool(
                    dir,
                    "-certreq",
                    "-alias",
                    "server",
                    "-keystore",
                    serverStore.toString(),
                    "-file",
                    request.toString());
            keytool(
                    dir,
                    "-gencert",
                    "-alias",
                    "ca",
                    "-keystore",
                    caStore.toString(),
                    "-infile",
                    request.toString(),
                    "-outfile",
                    signed.toString(),
                    "-rfc",
                    "-ext",
                    "san=dns:localhost,ip:127.0.0.1",
                    "-ext",
                    "eku=serverAuth",
                    "-validity",
                    "7");
            KeyStore caKeys = load(caStore);
            KeyStore serverKeys = load(serverStore);
            X509Certificate ca = (X509Certificate) caKeys.getCertificate("ca");
            X509Certificate server;
            try (InputStream in = Files.newInputStream(signed)) {
                server = (X509Certificate)
                        CertificateFactory.getInstance("X.509").generateCertificate(in);
            }
            RegistryTls tls = new RegistryTls(dir, ca, (PrivateKey) caKeys.getKey("ca", PASSWORD), server, (PrivateKey)
                    serverKeys.getKey("server", PASSWORD));
            Files.writeString(tls.caFile(), pem("CERTIFICATE", ca.getEncoded()), StandardCharsets.US_ASCII);
            Files.writeString(tls.keyFile(), pem("PRIVATE KEY", tls.serverKey.getEncoded()), StandardCharsets.US_ASCII);
            return tls;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the registry's TLS files in " + dir, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot read the keys keytool made in " + dir, e);
        }
    }

    /** The CA certificate (PEM): what a client trusts. */
    public Path caFile() {
        return dir.resolve("ca.crt");
    }

    /** The server certificate (PEM) for localhost and 127.0.0.1, signed by the CA. */
    public Path certificateFile() {
        return dir.resolve("server.crt");
    }

    /** The server's private key (PEM, PKCS#8). */
    public Path keyFile() {
        return dir.resolve("server.key");
    }

    public X509Certificate caCertificate() {
        return ca;
    }

    /** The CA's key, e.g. to sign registry tokens a registry trusts through {@link #caFile()}. */
    public PrivateKey caKey() {
        return caKey;
    }

    /** For a client that trusts this CA only. */
    public SSLContext clientContext() {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry("ca", ca);
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build a client TLS context", e);
        }
    }

    /** For an HTTPS server of the test's own (a token server, a blob store) with the registry's certificate. */
    public SSLContext serverContext() {
        try {
            KeyStore keys = KeyStore.getInstance("PKCS12");
            keys.load(null, null);
            keys.setKeyEntry("server", serverKey, PASSWORD, new Certificate[] {server, ca});
            KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(keys, PASSWORD);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalStateException("cannot build a server TLS context", e);
        }
    }

    static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n"
                + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    private static KeyStore load(Path file) throws IOException, GeneralSecurityException {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(file)) {
            store.load(in, PASSWORD);
        }
        return store;
    }

    private static void keytool(Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        // A short-lived tool: the JIT's first tier is all it needs.
        command.add("-J-XX:TieredStopAtLevel=1");
        command.addAll(List.of(args));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", new String(PASSWORD)));
        Process process = new ProcessBuilder(command)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                process.destroyForcibly();
                throw new IOException("keytool " + String.join(" ", args) + " failed: " + output);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while keytool ran", e);
        }
    }
}
