package conformance;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.*;
import java.util.*;

/** The adapter's JSON, and the protocol's stdout, which responses and callbacks share. */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper().disable(SerializationFeature.FAIL_ON_EMPTY_BEANS);
    /** The real stdout: System.out goes to stderr, so only protocol lines reach it. */
    static final OutputStream OUT = new FileOutputStream(FileDescriptor.out);

    /** A deep copy through JSON: the port's objects become plain values. */
    static Object copy(Object value) {
        try {
            return MAPPER.readValue(MAPPER.writeValueAsBytes(value), Object.class);
        } catch (IOException e) {
            throw AdapterException.failed("adapter: cannot encode " + value.getClass().getName() + ": " + e.getMessage());
        }
    }

    /** A map of key, value pairs; unlike Map.of it keeps nulls, which the protocol reports. */
    static Map<String, Object> obj(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put((String) kv[i], kv[i + 1]);
        return m;
    }

    /** Writes one protocol line; the port's threads (callbacks) and the main thread share stdout. */
    static void writeLine(Map<String, Object> line) throws IOException {
        byte[] bytes = MAPPER.writeValueAsBytes(line);
        synchronized (OUT) {
            OUT.write(bytes);
            OUT.write('\n');
            OUT.flush();
        }
    }
}
