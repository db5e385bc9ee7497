package conformance;

/** The entry point (prepare's command names it): the kit, and the areas it finds, which fill its op table. */
public final class Adapter {
    private Adapter() {}

    public static void main(String[] argv) throws Exception {
        Kit kit = Kit.start();
        for (Kit.Area area : Kit.areas()) area.install(kit);
        kit.serve();
    }
}
