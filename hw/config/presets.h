#pragma once
// Presets: configs/<kind>/<name>.json files referenced by name from an arch config, e.g.
//   "chiplet": "simba"  or  "link": {"preset": "grs-organic", "energy_pj_per_bit": 0.6}
// A preset is looked up next to the arch file (../<kind>/) first, then in the shipped configs.
// Each field reader takes the values already known (defaults, or a preset) and lets the
// object override any of them; unknown keys are rejected by finish().
#include "hw/config/json_input.h"

#include <string>

namespace mcmsim {

/// Names of the presets in `dir`, comma-separated, for error messages.
std::string list_presets(const std::string& dir);

/// Path of preset `name` of `kind`; an InputError at `where` when there is none.
std::string find_preset(const JsonNode& where, const std::string& arch_file, const std::string& kind, const std::string& name);

/// Directory holding the shipped presets (configs/).
std::string default_config_dir();

/// A preset reference: a bare name, or an object with an optional "preset" plus overrides.
template <typename Config, typename ReadFields>
Config read_with_preset(const JsonNode& node, const std::string& arch_file, const std::string& kind, ReadFields read_fields) {
    Config cfg;
    auto load_preset = [&](const JsonNode& name_node) {
        std::string name = name_node.string();
        std::string path = find_preset(name_node, arch_file, kind, name);
        json doc = load_json_file(path);
        JsonObject po = json_root(doc, path).object();
        read_fields(po, cfg);
        cfg.preset = name;
    };
    if (node.is_string()) {
        load_preset(node);
        return cfg;
    }
    JsonObject o = node.object();
    if (auto p = o.optional("preset")) load_preset(*p);
    read_fields(o, cfg);
    return cfg;
}

}  // namespace mcmsim
