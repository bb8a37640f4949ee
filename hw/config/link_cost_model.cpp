#include "hw/config/link_cost_model.h"

#include "hw/config/json_input.h"

namespace mcmsim {

LinkCostModel load_link_cost_model(const std::string& path) {
    const json doc = load_json_file(path);
    JsonObject o = json_root(doc, path).object();
    LinkCostModel m;
    m.file = path;
    o.allow("source");
    o.allow("description");
    m.name = o.required("name").string();
    m.unit = o.required("unit").string();
    if (m.unit.empty()) o.required("unit").fail("a non-empty unit name", "an empty string");
    const JsonNode links = o.required("links");
    JsonObject lo = links.object();
    for (auto it = links.raw().begin(); it != links.raw().end(); ++it) {
        JsonObject entry = lo.required(it.key()).object();
        entry.allow("source");
        // A cost that is not positive would make bandwidth free: every budget unbounded.
        m.per_gbps[it.key()] = entry.required("per_gbps").number_in(1e-12, 1e12);
        entry.finish();
    }
    if (m.per_gbps.empty()) links.fail("at least one link preset with its cost", "none");
    o.finish();
    return m;
}

}  // namespace mcmsim
