#include "traces/report/package_floorplan.h"

#include "hw/common/choice.h"
#include "hw/config/package_config.h"
#include "hw/topology/mesh_topology.h"
#include "traces/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace mcmsim {

namespace {

constexpr double kCell = 96, kChip = 58, kMargin = 56, kLinkGap = 4.5;

struct FloorplanLink {
    double bytes = 0, busy = 0;
    double sim_utilization = -1;  ///< the simulation's own figure, when the report has one
};

std::map<std::string, FloorplanLink> link_figures(const nlohmann::json& report) {
    std::map<std::string, FloorplanLink> out;
    for (const auto& l : report["activity"]["links"]) {
        FloorplanLink& f = out[l["name"].get<std::string>()];
        f.bytes = l["bytes"].get<double>();
        f.busy = l["busy_fraction"].get<double>();
    }
    const auto& stats = report["stats"];
    if (stats.is_object() && stats.contains("network") && stats["network"].contains("links"))
        for (const auto& l : stats["network"]["links"])
            if (l.contains("utilization")) {
                // The VC network names its channels without the ledger's "link." prefix.
                std::string name = l["name"].get<std::string>();
                if (name.rfind("link.", 0) != 0) name = "link." + name;
                out[name].sim_utilization = l["utilization"].get<double>();
            }
    return out;
}

/// The package's topology as the report's config describes it.
MeshTopology topology_of(const nlohmann::json& pkg) {
    const int rows = pkg["rows"].get<int>(), cols = pkg["cols"].get<int>();
    const auto topology = parse_choice<PackageTopology>(pkg["topology"].get<std::string>());
    if (topology == PackageTopology::Torus) return MeshTopology::torus(rows, cols, Routing::XY);
    if (topology == PackageTopology::Graph) {
        std::vector<PackageEdge> edges;
        for (const auto& e : pkg["edges"])
            edges.push_back(PackageEdge{e["between"][0].get<int>(), e["between"][1].get<int>(),
                                        parse_choice<LinkClass>(e["class"].get<std::string>()).value_or(LinkClass::Row)});
        return MeshTopology::graph(rows, cols, edges);
    }
    return MeshTopology(rows, cols, Routing::XY, topology == PackageTopology::MeshDiagonal);
}

std::string mb(double bytes) { return svg_num(bytes / 1e6, 2) + " MB"; }

}  // namespace

std::string package_floorplan_svg(const nlohmann::json& report) {
    const auto& pkg = report["config"]["package"];
    const int rows = pkg["rows"].get<int>(), cols = pkg["cols"].get<int>();
    const MeshTopology topo = topology_of(pkg);
    const std::map<std::string, FloorplanLink> figures = link_figures(report);
    double busiest = 0;
    for (const auto& [name, f] : figures) busiest = std::max(busiest, f.bytes);

    const double w = 2 * kMargin + cols * kCell, h = 2 * kMargin + rows * kCell + 24;
    SvgCanvas c(w, h, "package floorplan");
    auto cx = [&](int r) { return kMargin + (topo.col_of(r) + 0.5) * kCell; };
    auto cy = [&](int r) { return kMargin + (topo.row_of(r) + 0.5) * kCell; };

    // Links first, under the chiplets: each direction offset to its right-hand side.
    struct Label {
        double bytes, x, y;
    };
    std::vector<Label> ranked;
    for (int r = 0; r < topo.routers(); ++r)
        for (int p = 0; p < kMeshPorts; ++p) {
            const int n = topo.neighbor(r, static_cast<Port>(p));
            if (n < 0) continue;
            const int link = MeshTopology::link_id(r, static_cast<Port>(p));
            const std::string name = topo.link_account(link);
            const auto it = figures.find(name);
            const FloorplanLink f = it == figures.end() ? FloorplanLink{} : it->second;
            // A torus's wrap-around link leaves the grid through the edge it wraps across.
            const PortStep step = step_of(static_cast<Port>(p));
            const bool wraps = topo.wraps(link);
            double dx = wraps ? step.dc * kCell * 0.75 : cx(n) - cx(r), dy = wraps ? step.dr * kCell * 0.75 : cy(n) - cy(r);
            const double len = std::hypot(dx, dy);
            const double ox = -dy / len * kLinkGap, oy = dx / len * kLinkGap;
            // From the edge of one chiplet to the edge of the next.
            const double trim = kChip / 2 / std::max(std::fabs(dx), std::fabs(dy)) * len;
            const double ux = dx / len, uy = dy / len;
            std::string title = name + ": " + mb(f.bytes) + ", busy " + svg_num(100 * f.busy, 1) + " %";
            if (f.sim_utilization >= 0) title += " (simulated utilisation " + svg_num(100 * f.sim_utilization, 1) + " %)";
            const double ex = wraps ? cx(r) + dx : cx(n) - ux * trim, ey = wraps ? cy(r) + dy : cy(n) - uy * trim;
            c.line(cx(r) + ux * trim + ox, cy(r) + uy * trim + oy, ex + ox, ey + oy,
                   heat_colour(busiest > 0 ? f.bytes / busiest : 0), 3.5, title,
                   " class=\"link\" data-name=\"" + xml_escape(name) + "\" data-bytes=\"" + svg_num(f.bytes, 0) + "\"");
            if (f.bytes > 0) ranked.push_back(Label{f.bytes, cx(r) + dx / 2 + 2.5 * ox, cy(r) + dy / 2 + 2.5 * oy});
        }

    const auto& chiplets = report["activity"]["chiplets"];
    for (int r = 0; r < topo.routers(); ++r) {
        const double util = r < static_cast<int>(chiplets.size()) ? chiplets[r]["mac_utilization"].get<double>() : 0.0;
        const std::string title =
            "chiplet " + std::to_string(r) + " at " + topo.router_name(r) + ": MAC utilisation " + svg_num(100 * util, 1) + " %";
        c.rect(cx(r) - kChip / 2, cy(r) - kChip / 2, kChip, kChip, "#dbe9f6", title,
               " class=\"chiplet\" stroke=\"#335\" stroke-width=\"1\" rx=\"4\" data-id=\"" + std::to_string(r) + "\"");
        c.text(cx(r), cy(r) - 8, "c" + std::to_string(r), "middle", 11);
        c.text(cx(r), cy(r) + 6, svg_num(100 * util, 1) + " %", "middle", 9);
        c.circle(cx(r), cy(r) + 18, 4, "#335", "router " + topo.router_name(r), " class=\"router\"");
    }

    // Each memory outside the grid, on the edge its router lies on (west, east, north, south).
    std::map<int, int> per_router;
    const auto& memories = report["config"]["memories"];
    for (std::size_t m = 0; m < memories.size(); ++m) {
        const int row = memories[m]["attach"]["row"].get<int>(), col = memories[m]["attach"]["col"].get<int>();
        const int r = topo.id(row, col);
        const int k = per_router[r]++;
        double x = cx(r), y = cy(r);
        if (col == 0) x -= kCell / 2 + 16;
        else if (col == cols - 1) x += kCell / 2 + 16;
        else if (row == 0) y -= kCell / 2 + 16;
        else y += kCell / 2 + 16;
        y += 14 * k;
        const std::string name = memories[m].value("name", "memory " + std::to_string(m));
        c.line(cx(r), cy(r) + 18, x, y, "#7a5", 1.5, name + " PHY", " class=\"phy\" stroke-dasharray=\"3 2\"");
        c.rect(x - 24, y - 12, 48, 24, "#cfe8b9", name, " class=\"dram\" stroke=\"#474\" rx=\"3\"");
        c.text(x, y + 4, name, "middle", 8);
    }

    std::stable_sort(ranked.begin(), ranked.end(), [](const Label& a, const Label& b) { return a.bytes > b.bytes; });
    for (std::size_t i = 0; i < ranked.size() && i < static_cast<std::size_t>(kFloorplanLabelledLinks); ++i)
        c.text(ranked[i].x, ranked[i].y + 3, std::to_string(i + 1) + ": " + mb(ranked[i].bytes), "middle", 9,
               " class=\"busiest\" font-weight=\"bold\" fill=\"#800\"");
    c.text(kMargin, h - 10,
           "links coloured by bytes relative to the busiest (" + mb(busiest) + "); hover for bytes and busy fraction", "start",
           10);
    return c.str();
}

}  // namespace mcmsim
