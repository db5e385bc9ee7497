package conformance;

import java.io.IOException;
import java.util.List;

/** The entry point (prepare's command names it): the kit, and the areas that fill its op table. */
public final class Adapter {
    private Adapter() {}

    public static void main(String[] argv) throws IOException, InterruptedException {
        Kit kit = Kit.start();
        // Transport before store: their client.create parts run in this order, as they always have.
        for (Kit.Area area : List.of(new LlmArea(), new TransportArea(), new StoreArea(), new McpArea(), new ToolsArea(), new SkillsArea(), new HooksArea(), new ResilienceArea(), new MemoryArea(), new SuspensionArea(), new TranslateArea())) {
            area.install(kit);
        }
        kit.serve();
    }
}
