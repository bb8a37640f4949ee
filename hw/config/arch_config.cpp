#include "hw/config/arch_config.h"

#include "hw/config/json_input.h"

#include <algorithm>
#include <filesystem>
#include <limits>

namespace mcmsim {

namespace fs = std::filesystem;

namespace {

constexpr std::int64_t kIntMax = std::numeric_limits<std::int64_t>::max();

std::string list_presets(const std::string& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    std::string out;
    for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
    return out;
}

/// Finds configs/<kind>/<name>.json next to the arch file first, then in the shipped configs.
std::string find_preset(const JsonNode& where, const std::string& arch_file, const std::string& kind,
                        const std::string& name) {
    std::vector<fs::path> dirs = {fs::path(arch_file).parent_path().parent_path() / kind,
                                  fs::path(default_config_dir()) / kind};
    for (const auto& d : dirs) {
        fs::path p = d / (name + ".json");
        if (!name.empty() && name.find('/') == std::string::npos && fs::exists(p)) return p.string();
    }
    where.fail("a preset name from configs/" + kind + " (" + list_presets(dirs.back().string()) +
                   ") or an object",
               "\"" + name + "\"");
}

// Each reader takes the values already known (defaults, or a preset) and lets the object
// override any of them; unknown keys are rejected by finish().

void read_chiplet_fields(JsonObject& o, ChipletConfig& c) {
    o.allow("source");
    c.clock_ghz = o.positive("clock_ghz", c.clock_ghz);
    c.pes = o.integer_in("pes", c.pes, 1, kIntMax);
    c.macs_per_pe = o.integer_in("macs_per_pe", c.macs_per_pe, 1, kIntMax);
    c.mac_energy_pj = o.non_negative("mac_energy_pj", c.mac_energy_pj);
    c.sram_energy_pj_per_byte = o.non_negative("sram_energy_pj_per_byte", c.sram_energy_pj_per_byte);
    c.global_buffer_bytes = o.integer_in("global_buffer_bytes", c.global_buffer_bytes, 1, kIntMax);
    c.ni_bandwidth_gbps = o.positive("ni_bandwidth_gbps", c.ni_bandwidth_gbps);
    o.finish();
}

void read_link_fields(JsonObject& o, LinkConfig& l) {
    o.allow("source");
    l.bandwidth_gbps = o.positive("bandwidth_gbps", l.bandwidth_gbps);
    l.latency_ns = o.non_negative("latency_ns", l.latency_ns);
    l.energy_pj_per_bit = o.non_negative("energy_pj_per_bit", l.energy_pj_per_bit);
    o.finish();
}

/// A preset reference: a bare name, or an object with an optional "preset" plus overrides.
template <typename Config, typename ReadFields>
Config read_with_preset(const JsonNode& node, const std::string& arch_file, const std::string& kind,
                        ReadFields read_fields) {
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

void read_router(JsonObject o, RouterConfig& r) {
    o.allow("source");
    r.clock_ghz = o.positive("clock_ghz", r.clock_ghz);
    r.pipeline_cycles = o.integer_in("pipeline_cycles", r.pipeline_cycles, 1, 64);
    r.flit_bytes = o.integer_in("flit_bytes", r.flit_bytes, 1, 4096);
    r.energy_pj_per_flit = o.non_negative("energy_pj_per_flit", r.energy_pj_per_flit);
    o.finish();
}

PackageConfig read_package(JsonObject o, const std::string& arch_file) {
    PackageConfig p;
    o.allow("source");
    p.rows = static_cast<int>(o.required("rows").integer_in(1, 64));
    p.cols = static_cast<int>(o.required("cols").integer_in(1, 64));
    if (auto t = o.optional("topology")) p.topology = t->one_of({"mesh"});
    if (auto r = o.optional("routing")) p.routing = r->one_of({"xy", "yx"});
    if (auto l = o.optional("link"))
        p.link = read_with_preset<LinkConfig>(*l, arch_file, "links", read_link_fields);
    if (auto r = o.optional("router")) read_router(r->object(), p.router);
    p.max_packet_bytes = o.integer_in("max_packet_bytes", p.max_packet_bytes, 1, 1 << 20);
    o.finish();
    return p;
}

MemoryConfig read_memory(JsonObject o, const std::string& arch_file, const PackageConfig& pkg) {
    MemoryConfig m;
    o.allow("source");
    m.name = o.required("name").string();
    m.dram = read_with_preset<DramConfig>(o.required("dram"), arch_file, "dram", read_dram_fields);
    JsonObject at = o.required("attach").object();
    m.attach_row = static_cast<int>(at.required("row").integer_in(0, pkg.rows - 1));
    m.attach_col = static_cast<int>(at.required("col").integer_in(0, pkg.cols - 1));
    at.finish();
    m.phy_bandwidth_gbps = o.positive("phy_bandwidth_gbps", m.dram.bandwidth_gbps());
    m.phy_latency_ns = o.non_negative("phy_latency_ns", m.phy_latency_ns);
    m.phy_energy_pj_per_bit = o.non_negative("phy_energy_pj_per_bit", m.phy_energy_pj_per_bit);
    o.finish();
    return m;
}

std::string resolve_arch_path(const std::string& spec) {
    if (fs::exists(spec)) return spec;
    if (spec.find('/') == std::string::npos) {
        fs::path p = fs::path(default_config_dir()) / "arch" / (spec + ".json");
        if (fs::exists(p)) return p.string();
    }
    throw InputError(spec, "", "an arch config file or a name from configs/arch (" +
                                   list_presets(default_config_dir() + "/arch") + ")",
                     "no such file");
}

}  // namespace

std::string default_config_dir() {
#ifdef MCMSIM_CONFIG_DIR
    return MCMSIM_CONFIG_DIR;
#else
    return "configs";
#endif
}

ArchConfig load_arch_config(const std::string& spec) {
    std::string path = resolve_arch_path(spec);
    json doc = load_json_file(path);
    JsonObject o = json_root(doc, path).object();
    ArchConfig a;
    a.file = path;
    a.name = o.required("name").string();
    a.description = o.string("description", "");
    a.chiplet = read_with_preset<ChipletConfig>(o.required("chiplet"), path, "chiplets",
                                                read_chiplet_fields);
    a.package = read_package(o.required("package").object(), path);
    if (auto mems = o.optional("memories")) {
        for (const auto& m : mems->array()) a.memories.push_back(read_memory(m.object(), path, a.package));
    }
    o.allow("source");
    o.finish();
    if (a.memories.empty()) {
        throw InputError(path, "/memories", "at least one memory interface", "none");
    }
    for (std::size_t i = 0; i < a.memories.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (a.memories[i].name == a.memories[j].name)
                throw InputError(path, "/memories/" + std::to_string(i) + "/name", "a unique memory name",
                                 "\"" + a.memories[i].name + "\" used twice");
    return a;
}

}  // namespace mcmsim
