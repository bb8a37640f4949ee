#include "sim/cli/map_summary.h"

#include "traces/layer_summary.h"
#include "traces/plan_index.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace mcmsim::cli {

namespace {

double mib(std::int64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0); }

/// "min-max" of the shares, or "uniform": the full vector is in the plan.
std::string shares_text(const PlanLayerMapping& m) {
    auto range = [](const std::vector<double>& v) {
        auto [lo, hi] = std::minmax_element(v.begin(), v.end());
        char buf[48];
        std::snprintf(buf, sizeof buf, "%.3f-%.3f", *lo, *hi);
        return std::string(buf);
    };
    if (!m.shares.empty()) return range(m.shares);
    if (!m.row_shares.empty() || !m.col_shares.empty()) {
        std::string s;
        if (!m.row_shares.empty()) s += "r" + range(m.row_shares);
        if (!m.col_shares.empty()) s += (s.empty() ? "c" : " c") + range(m.col_shares);
        return s;
    }
    return "uniform";
}

/// Transfers that carry an explicit source route, out of all transfers of the layer.
std::pair<std::size_t, std::size_t> routed_transfers(const PlanLayer& layer) {
    std::size_t routed = 0, all = 0;
    for (const PlanOp& op : layer.ops) {
        if (op.kind != OpKind::Send) continue;
        for (std::size_t i = 0; i < op.transfer_count(); ++i) {
            ++all;
            if (op.transfer(i).route) ++routed;
        }
    }
    return {routed, all};
}

}  // namespace

void print_map_summary(std::ostream& out, const Plan& plan, const Estimate& est) {
    PlanIndex index(plan);
    std::vector<LayerSummary> layers = summarize_layers(plan, index, est.ops);
    const auto& accounts = est.ledger.layer_accounts();
    char line[512];
    std::snprintf(line, sizeof line, "%-22s %-20s %-13s %-6s %-8s %9s %9s %9s %9s %10s %10s\n", "layer", "partition",
                  "shares", "route", "coll.", "pkg_MiB", "chip_MiB", "dram_MiB", "link_MiB", "pred_us", "pred_uJ");
    out << line;
    std::size_t routed = 0, transfers = 0;
    for (std::size_t l = 0; l < plan.layers.size(); ++l) {
        const PlanLayer& layer = plan.layers[l];
        PlanLayerMapping m = layer.mapping.value_or(PlanLayerMapping{});
        auto [r, a] = routed_transfers(layer);
        routed += r;
        transfers += a;
        std::string coll = m.collective.empty() ? "-" : m.collective;
        if (!m.fallback.empty()) coll += "*";
        double uj = l < accounts.size() ? accounts[l]->total() / 1e6 : 0.0;
        std::snprintf(line, sizeof line, "%-22.22s %-20.20s %-13.13s %-6.6s %-8.8s %9.3f %9.3f %9.3f %9.3f %10.3f %10.3f\n",
                      layer.name.c_str(), m.partition.empty() ? "-" : m.partition.c_str(), shares_text(m).c_str(),
                      m.route.empty() ? "-" : m.route.c_str(), coll.c_str(), mib(m.package_bytes), mib(m.onchip_bytes),
                      mib(m.dram_bytes), mib(m.max_link_bytes), layers[l].latency_ns / 1e3, uj);
        out << line;
    }
    std::snprintf(line, sizeof line,
                  "predicted    %.3f us, %.3f uJ, EDP %.4g J*s; %zu of %zu transfers carry a source route"
                  " (pkg = bytes between chiplets, chip = served on-chip, link = busiest package link;"
                  " * = collective fell back to direct, see the plan)\n",
                  est.latency_ns / 1e3, est.ledger.total_pj() / 1e6, est.latency_ns * 1e-9 * est.ledger.total_pj() * 1e-12,
                  routed, transfers);
    out << line;
}

}  // namespace mcmsim::cli
