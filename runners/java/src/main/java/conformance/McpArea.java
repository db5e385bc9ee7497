package conformance;

import java.util.Map;

/** mcp.load and mcp.list, and the mcpConfig they share with toolkit.create. */
final class McpArea implements Kit.Area {
    @Override public int order() { return 40; }

    @Override
    public void install(Kit kit) {
        kit.toolkitPart((a, opts) -> {
            if (a.containsKey("mcpConfig")) Port.set(opts, "mcpConfig", mcpConfig(a));
        });
        kit.op("mcp.load", McpArea::load);
        // McpInventory is a record of plain values, {tools: {server: [ToolInfo]}, status}: the report as it is.
        kit.op("mcp.list", a -> {
            Object inv = noContext(a) ? Port.call("McpSource", null, "listMcpTools", mcpConfig(a))
                    : Port.call("McpSource", null, "listMcpTools", mcpConfig(a), KitLimits.cancelSignal(a));
            return inv == null ? Json.obj("tools", null, "status", null) : Json.copy(inv);
        });
    }

    /** McpSource.load(input, null, signal), or load(input) for {@code context: false}; closed before the answer. */
    private static Object load(Map<String, Object> a) {
        Object src = noContext(a) ? Port.call("McpSource", null, "load", mcpConfig(a))
                : Port.call("McpSource", null, "load", mcpConfig(a), null, KitLimits.cancelSignal(a));
        if (src == null) return Json.obj("tools", null, "status", null);
        try {
            return Kit.report(Port.call("McpSource", src, "tools"), Port.call("McpSource", src, "status"));
        } finally {
            Port.call("McpSource", src, "close");
        }
    }

    /** The port's McpConfig value: the path string for {file}, the object for {inline}. */
    private static Object mcpConfig(Map<String, Object> a) {
        Map<?, ?> c = (Map<?, ?>) a.get("mcpConfig");
        return c.containsKey("file") ? c.get("file") : c.get("inline");
    }

    /** {@code context: false}: the entry point without a handle, which can take no limits. */
    private static boolean noContext(Map<String, Object> a) {
        if (!Boolean.FALSE.equals(a.get("context"))) return false;
        if (KitLimits.limited(a)) throw AdapterException.unsupported("adapter: the port's no-context entry point takes no cancel signal, so no limits");
        return true;
    }
}
