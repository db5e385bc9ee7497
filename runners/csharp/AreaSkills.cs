// The skills area (upstream SPEC §3): toolkit.create's skill options, toolkit.skillsPrompt and
// skills.list.
using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

public sealed class AreaSkills : IArea
{
    public void Register(Registry r)
    {
        // Skills only when asked: no skillsDir leaves SkillsDir null (off).
        r.ToolkitOption((_, a, o) =>
        {
            if (a["skillsDir"] is JsonArray dirs) o.SkillsDir = dirs.Select(d => (string)d!).ToList();
            if (a["skillSampleLimit"] is JsonValue n) o.SkillSampleLimit = (int)n;
            if (a["skillsFilter"] is JsonObject f) o.SkillsFilter = f.ToDictionary(kv => kv.Key, kv => (bool)kv.Value!);
        });
        r.Op("toolkit.skillsPrompt", a => new JsonObject { ["prompt"] = Handles.Toolkit(a).SkillsPrompt() });
        r.Op("skills.list", SkillsList);
    }

    // SkillSource.ListSkills with the roots only: the inventory is unfiltered (S3).
    private static JsonObject SkillsList(JsonObject a)
    {
        var dirs = ((JsonArray)a["dirs"]!).Select(d => (string)d!).ToList();
        var inv = SkillSource.ListSkills(new SkillSource.LoadOptions { Dirs = dirs });
        var skills = new JsonArray(inv.Skills.Select(s => (JsonNode)new JsonObject
            { ["name"] = s.Name, ["description"] = s.Description, ["location"] = s.Location }).ToArray());
        var skipped = new JsonArray(inv.Skipped.Select(s => (JsonNode)new JsonObject
            { ["location"] = s.Location, ["reason"] = s.Reason }).ToArray());
        return new JsonObject { ["skills"] = skills, ["skipped"] = skipped };
    }
}
