package conformance;

import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * The Java port's side of the conformance protocol (SPEC.md §3): one JSON request per stdin
 * line, one response line per request on stdout (callback lines while it runs), logs on stderr.
 * {@code --check} prints the port's version if it and its MCP SDK load (prepare's probe); else
 * exit 3 with the reason on stderr.
 */
public final class Main {
    private Main() {}

    public static void main(String[] argv) throws IOException, InterruptedException {
        PrintStream realErr = System.err;
        // Whatever the port (or a library under it) prints on System.out must not reach stdout.
        System.setOut(new PrintStream(realErr, true, StandardCharsets.UTF_8));
        Warnings.install(realErr);
        if (argv.length > 0 && argv[0].equals("--check")) System.exit(check());

        Adapter adapter = new Adapter();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line; (line = in.readLine()) != null; ) {
            Map<?, ?> req;
            try {
                req = Json.parse(line) instanceof Map<?, ?> m && m.get("id") instanceof Number ? m : null;
            } catch (IOException e) {
                req = null;
            }
            if (req == null) { // no response can name it: the runner sees the missing answer
                if (!line.isBlank()) System.err.println("adapter: skipping a line without a request id: " + line);
                continue;
            }
            Object op = req.get("op");
            Map<String, Object> resp = adapter.handle(((Number) req.get("id")).longValue(), String.valueOf(op), req.get("args"));
            try {
                Json.writeLine(resp);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                Json.writeLine(Json.obj("id", resp.get("id"), "ok", false, "warnings", resp.get("warnings"),
                        "error", Json.obj("kind", "failed", "message", "adapter: cannot encode the result: " + e.getMessage())));
            }
            if ("shutdown".equals(op)) break;
        }
        adapter.closeAll(2_000);
        System.exit(0); // MCP SDK and HTTP client threads must not keep the JVM alive
    }

    private static int check() throws IOException {
        try {
            Port.cls("LlmClient");
            Port.cls("Toolkit");
            Port.cls("McpSource");
            Class.forName("io.modelcontextprotocol.client.McpClient", false, Main.class.getClassLoader());
            Json.OUT.write((Port.version() + "\n").getBytes(StandardCharsets.UTF_8));
            Json.OUT.flush();
            return 0;
        } catch (ClassNotFoundException e) {
            System.err.println("the port's MCP SDK (io.modelcontextprotocol.sdk:mcp) is not on the classpath:"
                    + " put the port's dependency jars beside it, or set TOOLNEXUS_JAVA_CLASSPATH or TOOLNEXUS_JAVA_DEPS");
        } catch (AdapterException | LinkageError e) {
            System.err.println(e instanceof AdapterException ? e.getMessage() : "the port's classes do not link: " + e);
        }
        return 3;
    }
}
