package io.mcdhooks.mco.disruption;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * Reads a file's contents out of an inline ignition config, as the MCO's
 * {@code GetIgnitionFileDataByPath} does for {@code data:} URLs ({@code data:,<percent-encoded>}
 * and {@code data:[<type>];base64,<data>}).
 */
public final class IgnitionFiles {

    private IgnitionFiles() {}

    /** The decoded contents of {@code path} in {@code spec.config}, or "" if the file is absent. */
    public static String contents(Map<String, Object> spec, String path) {
        Object config = spec.get("config");
        Object storage = config instanceof Map<?, ?> c ? c.get("storage") : null;
        Object files = storage instanceof Map<?, ?> s ? s.get("files") : null;
        if (files instanceof List<?> list) {
            for (Object f : list) {
                if (f instanceof Map<?, ?> m && path.equals(m.get("path"))) {
                    Object contents = m.get("contents");
                    Object source = contents instanceof Map<?, ?> cm ? cm.get("source") : null;
                    return source == null ? "" : decodeDataUrl(source.toString());
                }
            }
        }
        return "";
    }

    /** Decodes a {@code data:} URL; anything else is not supported here. */
    public static String decodeDataUrl(String url) {
        if (!url.startsWith("data:")) {
            throw new IllegalArgumentException("not a data URL: " + url);
        }
        int comma = url.indexOf(',');
        if (comma < 0) {
            throw new IllegalArgumentException("data URL without a comma: " + url);
        }
        String meta = url.substring(5, comma);
        String data = url.substring(comma + 1);
        if (meta.endsWith(";base64")) {
            return new String(Base64.getDecoder().decode(data), StandardCharsets.UTF_8);
        }
        return percentDecode(data);
    }

    private static String percentDecode(String s) {
        var out = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length()) {
                out.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                i += 2;
            } else {
                out.writeBytes(String.valueOf(c).getBytes(StandardCharsets.UTF_8));
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
