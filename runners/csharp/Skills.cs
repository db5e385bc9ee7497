using System.Text.Json.Nodes;
using Toolnexus;

namespace ConformanceAdapter;

// The skill source (upstream SPEC §3): toolkit.create's skill options, toolkit.skillsPrompt
// (in Ops.cs's dispatch) and skills.list. Written to the port's documented API; not compiled
// here (no .NET on this machine).
public sealed partial class Adapter
{
    // Skills only when asked: no skillsDir leaves SkillsDir null (off).
    private static void SkillOptions(JsonObject a, Toolkit.Options opts)
    {
        if (a["skillsDir"] is JsonArray dirs) opts.SkillsDir = dirs.Select(d => (string)d!).ToList();
        if (a["skillSampleLimit"] is JsonValue n) opts.SkillSampleLimit = (int)n;
        if (a["skillsFilter"] is JsonObject f) opts.SkillsFilter = f.ToDictionary(kv => kv.Key, kv => (bool)kv.Value!);
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
