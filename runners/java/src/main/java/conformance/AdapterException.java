package conformance;

/** An error whose protocol kind the adapter already knows (its own checks, unsupported ops). */
final class AdapterException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    final String kind;

    AdapterException(String kind, String message) {
        super(message);
        this.kind = kind;
    }

    static AdapterException unsupported(String message) {
        return new AdapterException(Errors.UNSUPPORTED, message);
    }

    static AdapterException failed(String message) {
        return new AdapterException(Errors.FAILED, message);
    }
}
