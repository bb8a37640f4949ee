#include "mapper/optimize/hardware_point.h"

#include "hw/common/input_error.h"
#include "hw/config/physical_ranges.h"
#include "mapper/optimize/link_allocation.h"

#include <algorithm>
#include <cstdio>

namespace mcmsim {

namespace {

std::string num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

}  // namespace

std::string HardwarePoint::label() const {
    std::string s;
    auto add = [&](const std::string& part) { s += (s.empty() ? "" : " ") + part; };
    if (diagonal_links) add(std::string("diag=") + (*diagonal_links ? "yes" : "no"));
    if (link_preset) add("link=" + *link_preset);
    if (link_bandwidth_gbps) add("bw=" + num(*link_bandwidth_gbps));
    if (dram_count || dram_placement)
        add("dram=" + (dram_count ? std::to_string(*dram_count) : std::string("base")) + "@" +
            (dram_placement ? to_string(*dram_placement) : "base"));
    if (link_budget) {
        add("budget=" + num(*link_budget) + " row=" + num(*row_share));
        if (diagonal_share) add("diag_share=" + num(*diagonal_share));
    }
    return s.empty() ? "base" : s;
}

nlohmann::json HardwarePoint::to_json() const {
    nlohmann::json j = nlohmann::json::object();
    if (diagonal_links) j["diagonal_links"] = *diagonal_links;
    if (link_preset) j["link_preset"] = *link_preset;
    if (link_bandwidth_gbps) j["link_bandwidth_gbps"] = *link_bandwidth_gbps;
    if (dram_count) j["dram_count"] = *dram_count;
    if (dram_placement) j["dram_placement"] = to_string(*dram_placement);
    if (link_budget) j["link_budget"] = *link_budget;
    if (row_share) j["row_share"] = *row_share;
    if (diagonal_share) j["diagonal_share"] = *diagonal_share;
    return j;
}

std::vector<HardwarePoint> hardware_points(const HardwareSpace& h) {
    std::vector<HardwarePoint> pts{HardwarePoint{}};
    auto expand = [&](const auto& values, auto set) {
        if (values.empty()) return;
        std::vector<HardwarePoint> next;
        for (const auto& p : pts)
            for (const auto& v : values) {
                HardwarePoint q = p;
                set(q, v);
                next.push_back(q);
            }
        pts = next;
    };
    expand(h.diagonal_links, [](HardwarePoint& p, bool v) { p.diagonal_links = v; });
    expand(h.link_preset, [](HardwarePoint& p, const std::string& v) { p.link_preset = v; });
    expand(h.link_bandwidth_gbps, [](HardwarePoint& p, double v) { p.link_bandwidth_gbps = v; });
    expand(h.dram_count, [](HardwarePoint& p, int v) { p.dram_count = v; });
    expand(h.dram_placement, [](HardwarePoint& p, DramPlacement v) { p.dram_placement = v; });
    if (const auto& b = h.link_budget) {
        expand(b->budget, [](HardwarePoint& p, double v) { p.link_budget = v; });
        expand(b->row_share, [](HardwarePoint& p, double v) { p.row_share = v; });
        expand(b->diagonal_share, [](HardwarePoint& p, double v) { p.diagonal_share = v; });
    }
    return pts;
}

std::vector<std::pair<int, int>> dram_sites(DramPlacement placement, int count, int rows, int cols, const std::string& file,
                                            const std::string& where) {
    std::vector<std::pair<int, int>> all;
    switch (placement) {
        case DramPlacement::West:
            for (int j = 0; j < count && count <= rows; ++j) all.push_back({(2 * j + 1) * rows / (2 * count), 0});
            break;
        case DramPlacement::Corners:
            all = {{0, 0}, {rows - 1, cols - 1}, {0, cols - 1}, {rows - 1, 0}};
            break;
        case DramPlacement::Edges:
            all = {{(rows - 1) / 2, 0}, {rows / 2, cols - 1}, {0, cols / 2}, {rows - 1, (cols - 1) / 2}};
            break;
        case DramPlacement::Centre:
            all = {
                {(rows - 1) / 2, (cols - 1) / 2}, {rows / 2, cols / 2}, {(rows - 1) / 2, cols / 2}, {rows / 2, (cols - 1) / 2}};
            break;
    }
    // On a small package some sites coincide; a router takes one memory.
    std::vector<std::pair<int, int>> distinct;
    for (const auto& site : all)
        if (std::find(distinct.begin(), distinct.end(), site) == distinct.end()) distinct.push_back(site);
    all = distinct;
    if (static_cast<int>(all.size()) < count)
        throw InputError(file, where,
                         "at most " + std::to_string(all.size()) + " DRAM stacks for placement \"" + to_string(placement) +
                             "\" on a " + std::to_string(rows) + " x " + std::to_string(cols) + " package",
                         std::to_string(count));
    all.resize(static_cast<std::size_t>(count));
    return all;
}

namespace {

/// Sets every link class of the package document `a` to its share of the point's budget.
void apply_link_budget(nlohmann::json& a, const HardwarePoint& p, const LinkBudgetSpace& b, const std::string& space_file) {
    const ArchConfig arch = arch_from_document(a, space_file);
    const LinkAllocation costs = current_allocation(arch, b.costs);
    const bool diagonals = costs.links[static_cast<std::size_t>(LinkClass::Diagonal)] > 0;
    if (diagonals && !p.diagonal_share)
        throw InputError(space_file, "/hardware/link_budget", "a diagonal_share for a package with diagonal links", "none");
    std::array<double, kLinkClasses> share{};
    share[static_cast<std::size_t>(LinkClass::Row)] = *p.row_share;
    const double diagonal = diagonals ? *p.diagonal_share : 0;
    share[static_cast<std::size_t>(LinkClass::Diagonal)] = diagonal;
    const double column = 1 - *p.row_share - diagonal;
    if (!(column > 0))
        throw InputError(space_file, "/hardware/link_budget/row_share",
                         "row and diagonal shares that leave the columns some of the budget",
                         "row " + num(*p.row_share) + " + diagonal " + num(diagonal));
    share[static_cast<std::size_t>(LinkClass::Column)] = column;
    const std::array<double, kLinkClasses> gbps = gbps_of_shares(costs, *p.link_budget, share);
    nlohmann::json& pkg = a["package"];
    auto as_object = [](const nlohmann::json& l) { return l.is_string() ? nlohmann::json{{"preset", l}} : l; };
    const nlohmann::json row = as_object(pkg.value("link", nlohmann::json::object()));
    nlohmann::json links = pkg.contains("links") ? pkg["links"] : nlohmann::json::object();
    for (const auto& [c, name] : ChoiceNames<LinkClass>::all) {
        const auto i = static_cast<std::size_t>(c);
        if (costs.links[i] == 0) continue;
        if (gbps[i] < ranges::kMinBandwidthGbps || gbps[i] > ranges::kMaxBandwidthGbps)
            throw InputError(space_file, "/hardware/link_budget/budget",
                             std::string("a budget that gives the ") + name + " links a bandwidth the configs take",
                             num(*p.link_budget) + " " + b.costs.unit + " (" + num(gbps[i]) + " GB/s)");
        nlohmann::json l = links.contains(name) ? as_object(links[name]) : row;
        l["bandwidth_gbps"] = gbps[i];
        links[name] = l;
    }
    pkg["links"] = links;
}

}  // namespace

nlohmann::json apply_hardware(const nlohmann::json& base, const HardwarePoint& p, const HardwareSpace& space,
                              const std::string& space_file) {
    nlohmann::json a = base;
    a["name"] = base.value("name", std::string("arch")) + " [" + p.label() + "]";
    nlohmann::json& pkg = a["package"];
    if (p.diagonal_links) pkg["topology"] = to_string(*p.diagonal_links ? PackageTopology::MeshDiagonal : PackageTopology::Mesh);
    if (p.link_preset || p.link_bandwidth_gbps) {
        nlohmann::json link = pkg.contains("link") ? pkg["link"] : nlohmann::json::object();
        if (link.is_string()) link = nlohmann::json{{"preset", link}};
        if (p.link_preset) link = nlohmann::json{{"preset", *p.link_preset}};  // the preset's own figures
        if (p.link_bandwidth_gbps) link["bandwidth_gbps"] = *p.link_bandwidth_gbps;
        pkg["link"] = link;
    }
    if (p.dram_count || p.dram_placement) {
        const nlohmann::json mems = base.value("memories", nlohmann::json::array());
        if (mems.empty()) throw InputError(space_file, "/hardware/dram_count", "a base config with a memory to copy", "none");
        const int count = p.dram_count ? *p.dram_count : static_cast<int>(mems.size());
        const int rows = pkg.at("rows").get<int>(), cols = pkg.at("cols").get<int>();
        std::vector<std::pair<int, int>> sites;  // per stack
        if (p.dram_placement) {
            sites = dram_sites(*p.dram_placement, count, rows, cols, space_file, "/hardware/dram_placement");
        } else {
            // Keep the base's sites: one stack per site, a router takes one memory.
            if (count > static_cast<int>(mems.size()))
                throw InputError(
                    space_file, "/hardware/dram_count",
                    "at most " + std::to_string(mems.size()) + " DRAM stacks without dram_placement (the base config's sites)",
                    std::to_string(count));
            for (int j = 0; j < count; ++j) {
                const auto& at = mems[sites.size() % mems.size()]["attach"];
                sites.push_back({at.at("row").get<int>(), at.at("col").get<int>()});
            }
        }
        nlohmann::json out = nlohmann::json::array();
        for (std::size_t j = 0; j < sites.size(); ++j) {
            nlohmann::json m = mems[j % mems.size()];
            m["name"] = "dram" + std::to_string(j);
            m["attach"] = {{"row", sites[j].first}, {"col", sites[j].second}};
            out.push_back(m);
        }
        a["memories"] = out;
    }
    if (p.link_budget && space.link_budget) apply_link_budget(a, p, *space.link_budget, space_file);
    return a;
}

}  // namespace mcmsim
