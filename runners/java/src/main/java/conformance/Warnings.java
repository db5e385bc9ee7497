package conformance;

import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

/**
 * The port writes its warnings as {@code System.err} lines starting with {@code [toolnexus]}.
 * System.err becomes a tee: every byte still reaches the real stderr (the runner keeps it), and
 * while a request is served it is also buffered; that request's warnings are its prefixed lines.
 */
final class Warnings {
    private static ByteArrayOutputStream active; // guarded by Warnings.class; null between requests

    private Warnings() {}

    static void install(PrintStream real) {
        System.setErr(new PrintStream(new OutputStream() {
            @Override public void write(int b) { write(new byte[]{(byte) b}, 0, 1); }

            @Override public void write(byte[] b, int off, int len) {
                synchronized (Warnings.class) {
                    real.write(b, off, len);
                    if (active != null) active.write(b, off, len);
                }
            }
        }, true, StandardCharsets.UTF_8));
    }

    static synchronized void begin() {
        active = new ByteArrayOutputStream();
    }

    static List<String> end() {
        System.err.flush();
        String text;
        synchronized (Warnings.class) {
            text = active.toString(StandardCharsets.UTF_8);
            active = null;
        }
        return Arrays.stream(text.split("\\r?\\n")).filter(l -> l.startsWith("[toolnexus]")).toList();
    }
}
