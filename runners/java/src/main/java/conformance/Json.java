package conformance;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.util.Map;

/** The adapter's own JSON: protocol lines in and out, and deep copies of what hooks see. */
final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper()
            .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private Json() {}

    /** Parses JSON text into plain Java values: Map, List, String, Number, Boolean, null. */
    static Object parse(String text) throws Exception {
        return MAPPER.readValue(text, Object.class);
    }

    /**
     * A deep copy through a JSON round trip, so later edits by the port (or by us) never change
     * what was recorded; a value that does not survive the trip is recorded as an error object.
     */
    static Object copy(Object value) {
        try {
            return MAPPER.readValue(MAPPER.writeValueAsBytes(value), Object.class);
        } catch (Exception e) {
            return Map.of("adapterError", "cannot copy: " + e.getMessage());
        }
    }
}
