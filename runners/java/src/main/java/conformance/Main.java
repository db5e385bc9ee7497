package conformance;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Java port's side of the conformance protocol (SPEC.md §3): one JSON request per stdin
 * line, exactly one JSON response line per request on stdout, everything else on stderr.
 *
 * <p>{@code --check} loads the port and its dependencies and prints the port's version on
 * stdout (used by {@code prepare}); exit 3 with a one-line reason on stderr when they are missing.
 */
public final class Main {
    private Main() {}

    public static void main(String[] argv) throws IOException {
        PrintStream realErr = System.err;
        // Only protocol lines may reach the real stdout: whatever the port (or a library under
        // it) prints on System.out goes to stderr instead.
        OutputStream protocolOut = new FileOutputStream(FileDescriptor.out);
        System.setOut(new PrintStream(realErr, true, StandardCharsets.UTF_8));
        Warnings.install(realErr);

        if (argv.length > 0 && argv[0].equals("--check")) {
            System.exit(check(protocolOut));
        }

        Adapter.installCrashHandler();
        Adapter adapter = new Adapter();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            Adapter.Request req = Adapter.parse(line);
            if (req == null) continue; // reported on stderr: no valid response can be written
            Map<String, Object> resp = adapter.handle(req);
            write(protocolOut, resp);
            if ("shutdown".equals(req.op())) break;
        }
        adapter.closeAll(2_000);
        protocolOut.flush();
        // MCP SDK and HTTP client threads must not keep the JVM alive after shutdown.
        System.exit(0);
    }

    /** Writes one response line; a result that cannot be encoded becomes a failed response. */
    static void write(OutputStream out, Map<String, Object> resp) throws IOException {
        byte[] bytes;
        try {
            bytes = Json.MAPPER.writeValueAsBytes(resp);
        } catch (Exception e) {
            Map<String, Object> fallback = new LinkedHashMap<>();
            fallback.put("id", resp.get("id"));
            fallback.put("ok", false);
            fallback.put("error", Map.of("kind", "failed",
                    "message", "adapter: cannot encode result: " + e.getMessage()));
            fallback.put("warnings", resp.getOrDefault("warnings", List.of()));
            bytes = Json.MAPPER.writeValueAsBytes(fallback);
        }
        synchronized (out) {
            out.write(bytes);
            out.write('\n');
            out.flush();
        }
    }

    /** Loads the port's entry points and one class of its MCP dependency; prints the version. */
    private static int check(OutputStream out) throws IOException {
        try {
            Port port = new Port();
            try {
                Class.forName("io.modelcontextprotocol.client.McpClient", false, Main.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                System.err.println("the port's MCP SDK (io.modelcontextprotocol.sdk:mcp) is not on the classpath:"
                        + " put the port's dependency jars beside it, or set TOOLNEXUS_JAVA_CLASSPATH or TOOLNEXUS_JAVA_DEPS");
                return 3;
            }
            out.write((port.version() + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            return 0;
        } catch (AdapterException e) {
            System.err.println(e.getMessage());
            return 3;
        } catch (LinkageError e) {
            System.err.println("the port's classes do not link: " + e);
            return 3;
        }
    }
}
