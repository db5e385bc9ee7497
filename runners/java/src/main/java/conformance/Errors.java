package conformance;

import java.io.FileNotFoundException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.UndeclaredThrowableException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Maps what the port threw to a protocol error kind; the message stays the port's own. */
final class Errors {
    static final String CANCELLED = "cancelled";
    static final String DEADLINE = "deadline";
    static final String INVALID = "invalid";
    static final String UNSUPPORTED = "unsupported";
    static final String FAILED = "failed";

    private static final String PKG = "io.github.muthuishere.toolnexus.";

    private Errors() {}

    /** Strips the reflection and future wrappers so the port's own exception is judged. */
    static Throwable unwrap(Throwable t) {
        while (true) {
            Throwable c = t.getCause();
            if (c == null) return t;
            if (t instanceof InvocationTargetException || t instanceof UndeclaredThrowableException
                    || t instanceof CompletionException || t instanceof ExecutionException) {
                t = c;
            } else {
                return t;
            }
        }
    }

    /** The library's exception class (binary name); none for the adapter's own errors. */
    static String type(Throwable t) {
        return t instanceof AdapterException ? null : t.getClass().getName();
    }

    /** The port's text, or the exception's name when it carries none. */
    static String message(Throwable t) {
        String m = t.getMessage();
        return m != null ? m : t.toString();
    }

    /**
     * The protocol kind of {@code t}.
     *
     * The kind comes from the exception's class only (SPEC.md §3): the port's one cancellation
     * handle for MCP loads is a {@code CancelSignal}, so a cancel and a deadline both surface as
     * {@code CancellationException} ("cancelled"); its {@code TimeoutException}s are "deadline".
     *
     * @param configOp true for ops whose input is an MCP config: there a JSON or file error is
     *                 a rejected input ("invalid"), not a failure while doing the work
     */
    static String kind(Throwable t, boolean configOp) {
        if (t instanceof AdapterException ae) return ae.kind;
        String name = t.getClass().getName();
        if (t instanceof java.util.concurrent.CancellationException
                || name.equals(PKG + "LlmClient$CancelledException")) {
            return CANCELLED;
        }
        if (t instanceof java.util.concurrent.TimeoutException
                || t instanceof java.net.http.HttpTimeoutException
                || name.equals(PKG + "LlmClient$TimeoutException")) {
            return DEADLINE;
        }
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof IllegalArgumentException) return INVALID;
            if (configOp && (c instanceof NoSuchFileException || c instanceof FileNotFoundException
                    || isJacksonError(c))) {
                return INVALID;
            }
        }
        if (configOp) {
            String m = message(t);
            if (m.startsWith("Invalid JSON") || m.startsWith("Cannot read MCP config")) return INVALID;
        }
        return FAILED;
    }

    /** Jackson 2 or 3 parse/mapping errors, matched by name so no version is assumed. */
    private static boolean isJacksonError(Throwable t) {
        for (Class<?> k = t.getClass(); k != null; k = k.getSuperclass()) {
            String n = k.getName();
            if (n.equals("com.fasterxml.jackson.core.JsonProcessingException")
                    || n.equals("tools.jackson.core.JacksonException")) {
                return true;
            }
        }
        return false;
    }
}
