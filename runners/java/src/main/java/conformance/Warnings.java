package conformance;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The Java port writes its warnings with {@code System.err.println("[toolnexus] ...")}. At
 * startup System.err becomes a tee: every byte still reaches the real stderr (the runner keeps
 * it), and while a request is served the bytes are also buffered. When the request ends, the
 * buffered lines that start with {@code [toolnexus]} are its warnings; other stderr output
 * (JVM notices, SLF4J, stack traces of libraries under the port) is not a port warning.
 */
final class Warnings {
    static final String PREFIX = "[toolnexus]";

    private static final Object LOCK = new Object();
    private static ByteArrayOutputStream active; // guarded by LOCK; null between requests

    private Warnings() {}

    /** Replaces System.err with the tee; the System.err field is read on every port call. */
    static void install(PrintStream realErr) {
        OutputStream tee = new OutputStream() {
            @Override
            public void write(int b) {
                synchronized (LOCK) {
                    realErr.write(b);
                    if (active != null) active.write(b);
                }
            }

            @Override
            public void write(byte[] b, int off, int len) {
                synchronized (LOCK) {
                    realErr.write(b, off, len);
                    if (active != null) active.write(b, off, len);
                }
            }

            @Override
            public void flush() {
                realErr.flush();
            }
        };
        System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
    }

    /** Starts buffering a request's stderr. */
    static void begin() {
        synchronized (LOCK) {
            active = new ByteArrayOutputStream();
        }
    }

    /** Stops buffering and returns the port's warning lines, in order. */
    static List<String> end() {
        System.err.flush();
        String text;
        synchronized (LOCK) {
            text = active == null ? "" : active.toString(StandardCharsets.UTF_8);
            active = null;
        }
        List<String> out = new ArrayList<>();
        for (String line : text.split("\\r?\\n")) {
            if (line.startsWith(PREFIX)) out.add(line);
        }
        return out;
    }
}
