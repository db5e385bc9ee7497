package conformance;

import java.util.*;

/** The skill source (upstream SPEC §3): toolkit.create's skill options, toolkit.skillsPrompt and skills.list. */
final class SkillsArea implements Kit.Area {
    @Override public int order() { return 60; }

    @Override
    public void install(Kit kit) {
        // Skills only when asked: absent skillsDir leaves the port's option null (off).
        kit.toolkitPart((a, opts) -> {
            if (a.get("skillsDir") instanceof List<?> dirs) Port.set(opts, "skillsDir", new ArrayList<>(dirs));
            if (a.get("skillSampleLimit") instanceof Number n) Port.set(opts, "skillSampleLimit", n.intValue());
            if (a.get("skillsFilter") instanceof Map<?, ?> f) Port.set(opts, "skillsFilter", new LinkedHashMap<>(f));
        });
        kit.op("toolkit.skillsPrompt", a -> Json.obj("prompt", Port.call("Toolkit", kit.toolkits.get(a.get("toolkit")), "skillsPrompt")));
        // SkillSource.listSkills(LoadOptions) with the roots only: the inventory is unfiltered (S3).
        kit.op("skills.list", a -> {
            Object opts = Port.make("SkillSource$LoadOptions");
            Port.set(opts, "dirs", new ArrayList<>((List<?>) a.get("dirs")));
            Object inv = Port.call("SkillSource", null, "listSkills", opts);
            List<Object> skills = new ArrayList<>(), skipped = new ArrayList<>();
            for (Object s : (List<?>) Port.get(inv, "skills")) {
                skills.add(Json.obj("name", Port.get(s, "name"), "description", Port.get(s, "description"), "location", Port.get(s, "location")));
            }
            for (Object s : (List<?>) Port.get(inv, "skipped")) {
                skipped.add(Json.obj("location", Port.get(s, "location"), "reason", Port.get(s, "reason")));
            }
            return Json.obj("skills", skills, "skipped", skipped);
        });
    }
}
