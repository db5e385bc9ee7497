package conformance;

/** An answer of the adapter's own: "unsupported" (the port cannot express it) or "failed" (an adapter fault). */
final class AdapterException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final String kind;

    private AdapterException(String kind, String message) {
        super(message);
        this.kind = kind;
    }

    static AdapterException unsupported(String message) { return new AdapterException("unsupported", message); }

    static AdapterException failed(String message) { return new AdapterException("failed", message); }
}
