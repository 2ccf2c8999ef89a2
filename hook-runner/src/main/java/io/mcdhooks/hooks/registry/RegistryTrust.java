package io.mcdhooks.hooks.registry;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/** TLS trust for registries: the JDK's CAs, plus a PEM bundle of private CAs (a mirror's, say). */
public final class RegistryTrust {

    private RegistryTrust() {}

    /** The JDK's default trust with the certificates of {@code bundle} added; {@code null} adds none. */
    public static SSLContext context(Path bundle) {
        try {
            if (bundle == null) {
                return SSLContext.getDefault();
            }
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            int n = 0;
            for (X509Certificate ca : defaultIssuers()) {
                trust.setCertificateEntry("jdk-" + n++, ca);
            }
            Collection<? extends Certificate> added;
            try (InputStream in = Files.newInputStream(bundle)) {
                added = CertificateFactory.getInstance("X.509").generateCertificates(in);
            }
            if (added.isEmpty()) {
                throw new IllegalArgumentException(bundle + " holds no PEM certificate");
            }
            for (Certificate ca : added) {
                trust.setCertificateEntry("bundle-" + n++, ca);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, tmf.getTrustManagers(), null);
            return context;
        } catch (IOException e) {
            throw new IllegalArgumentException(bundle + " cannot be read: " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(bundle + " is not a PEM certificate bundle: " + e.getMessage(), e);
        }
    }

    private static X509Certificate[] defaultIssuers() throws GeneralSecurityException {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init((KeyStore) null);
        for (TrustManager manager : tmf.getTrustManagers()) {
            if (manager instanceof X509TrustManager x509) {
                return x509.getAcceptedIssuers();
            }
        }
        return new X509Certificate[0];
    }
}
