#include "hw/config/arch_config.h"

#include "hw/config/physical_ranges.h"

#include "hw/common/integer_math.h"
#include "hw/config/json_input.h"
#include "hw/config/presets.h"

#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <sstream>

namespace mcmsim {

namespace fs = std::filesystem;

namespace {

MemoryConfig read_memory(JsonObject o, const std::string& arch_file, const PackageConfig& pkg) {
    MemoryConfig m;
    o.allow("source");
    m.name = o.required("name").string();
    m.dram = read_with_preset<DramConfig>(o.required("dram"), arch_file, "dram", read_dram_fields);
    JsonObject at = o.required("attach").object();
    m.attach_row = static_cast<int>(at.required("row").integer_in(0, pkg.rows - 1));
    m.attach_col = static_cast<int>(at.required("col").integer_in(0, pkg.cols - 1));
    at.finish();
    m.phy_bandwidth_gbps =
        o.number_in("phy_bandwidth_gbps", m.dram.bandwidth_gbps(), ranges::kMinBandwidthGbps, ranges::kMaxBandwidthGbps);
    m.phy_latency_ns = o.number_in("phy_latency_ns", m.phy_latency_ns, 0, ranges::kMaxLatencyNs);
    m.phy_energy_pj_per_bit = o.number_in("phy_energy_pj_per_bit", m.phy_energy_pj_per_bit, 0, ranges::kMaxEnergyPjPerBit);
    o.finish();
    return m;
}

std::string resolve_arch_path(const std::string& spec) {
    if (fs::exists(spec)) return spec;
    if (spec.find('/') == std::string::npos) {
        fs::path p = fs::path(default_config_dir()) / "arch" / (spec + ".json");
        if (fs::exists(p)) return p.string();
    }
    throw InputError(spec, "",
                     "an arch config file or a name from configs/arch (" + list_presets(default_config_dir() + "/arch") + ")",
                     "no such file");
}

}  // namespace

ArchConfig load_arch_config(const std::string& spec) {
    const std::string path = resolve_arch_path(spec);
    return arch_from_document(load_json_file(path), path);
}

std::string arch_config_path(const std::string& spec) { return resolve_arch_path(spec); }

std::vector<std::string> arch_warnings(const ArchConfig& arch) {
    std::vector<std::string> out = package_warnings(arch.package);
    if (ideal_routers(arch.package)) return out;
    // The widest port toward the mesh, over the package's link classes.
    std::int64_t flits = 0;
    for (int c = 0; c < kLinkClasses; ++c) flits = std::max(flits, port_flits_for(arch.package, static_cast<LinkClass>(c)));
    const double port = static_cast<double>(flits) * arch.package.router.flit_gbps();
    auto faster = [&](const std::string& pointer, const std::string& what, double gbps) {
        if (gbps <= port + 1e-9) return;
        std::ostringstream w;
        w << std::setprecision(4) << pointer << ": " << what << " carries " << gbps
          << " GB/s, more than its router's switch takes from one input toward the mesh (one port, " << port
          << " GB/s): traffic to other routers leaves at that rate";
        out.push_back(w.str());
    };
    for (std::size_t m = 0; m < arch.memories.size(); ++m)
        faster("/memories/" + std::to_string(m), "the PHY of memory " + arch.memories[m].name, arch.memories[m].phy_bandwidth());
    faster("/chiplet/ni_bandwidth_gbps", "a chiplet's NI", arch.chiplet.ni_bandwidth_gbps);
    return out;
}

std::vector<double> local_port_gbps(const ArchConfig& arch) {
    std::vector<double> gbps(static_cast<std::size_t>(arch.chiplet_count()), 0.0);
    for (int c = 0; c < arch.chiplet_count(); ++c) gbps[static_cast<std::size_t>(c)] += arch.chiplet.ni_bandwidth_gbps;
    for (const MemoryConfig& m : arch.memories)
        gbps[static_cast<std::size_t>(m.attach_row * arch.package.cols + m.attach_col)] += m.phy_bandwidth();
    for (double& g : gbps) g = std::max(g, arch.package.router.flit_gbps());
    return gbps;
}

ArchConfig arch_from_document(const nlohmann::json& doc, const std::string& path) {
    JsonObject o = json_root(doc, path).object();
    ArchConfig a;
    a.file = path;
    a.name = o.required("name").string();
    a.description = o.string("description", "");
    a.chiplet = read_with_preset<ChipletConfig>(o.required("chiplet"), path, "chiplets", read_chiplet_fields);
    a.package = read_package(o.required("package").object(), path);
    if (auto mems = o.optional("memories")) {
        for (const auto& m : mems->array()) a.memories.push_back(read_memory(m.object(), path, a.package));
    }
    o.allow("source");
    o.finish();
    if (a.memories.empty()) {
        throw InputError(path, "/memories", "at least one memory interface", "none");
    }
    // Names are unique; a router has one port for a memory's PHY: two stacks on one router
    // would share a port that every model gives to one of them.
    for (std::size_t i = 0; i < a.memories.size(); ++i)
        for (std::size_t j = 0; j < i; ++j) {
            if (a.memories[i].name == a.memories[j].name)
                throw InputError(path, "/memories/" + std::to_string(i) + "/name", "a unique memory name",
                                 "\"" + a.memories[i].name + "\" used twice");
            if (a.memories[i].attach_row == a.memories[j].attach_row && a.memories[i].attach_col == a.memories[j].attach_col)
                throw InputError(path, "/memories/" + std::to_string(i) + "/attach", "a router no other memory attaches to",
                                 "row " + std::to_string(a.memories[i].attach_row) + ", col " +
                                     std::to_string(a.memories[i].attach_col) + ", taken by \"" + a.memories[j].name + "\"");
        }
    return a;
}

}  // namespace mcmsim
