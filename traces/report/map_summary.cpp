#include "traces/report/map_summary.h"

#include "traces/plan/plan_index.h"
#include "traces/report/layer_summary.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

namespace mcmsim {

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

/// "r0-5 c2-3": the rows and columns of a layer's chiplet group.
std::string group_text(const PlanLayerMapping::Group& g) {
    if (g.rows <= 0) return "-";
    auto span = [](int a, int n) { return n == 1 ? std::to_string(a) : std::to_string(a) + "-" + std::to_string(a + n - 1); };
    return "r" + span(g.row0, g.rows) + " c" + span(g.col0, g.cols);
}

/// A table row: one workload layer, all its micro-batches' plan layers summed.
struct Row {
    std::string name;
    PlanLayerMapping m;  ///< the first micro-batch's record, bytes summed over all
    int plan_layers = 0;
    std::size_t routed = 0, transfers = 0;
    double latency_ns = 0, uj = 0;
};

/// The workload layer a plan layer computes: its name without the "/mbN" of a micro-batch.
std::string layer_name(const PlanLayer& layer) {
    if (!layer.mapping || layer.mapping->micro_batches <= 1) return layer.name;
    const std::string suffix = "/mb" + std::to_string(layer.mapping->micro_batch);
    const std::string& n = layer.name;
    return n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0
               ? n.substr(0, n.size() - suffix.size())
               : n;
}

/// One row per workload layer: micro-batches of a layer fold into its row (in the order layers
/// first appear). Sets `placed` when any layer has a pipeline segment.
std::vector<Row> fold_rows(const Plan& plan, const Estimate& est, bool& placed) {
    PlanIndex index(plan);
    std::vector<LayerSummary> layers = summarize_layers(plan, index, est.ops);
    const auto& accounts = est.ledger.layer_accounts();
    std::vector<Row> rows;
    std::map<std::string, std::size_t> row_of;
    placed = false;
    for (std::size_t l = 0; l < plan.layers.size(); ++l) {
        const PlanLayer& layer = plan.layers[l];
        PlanLayerMapping m = layer.mapping.value_or(PlanLayerMapping{});
        placed = placed || m.segment >= 0;
        const std::string name = layer_name(layer);
        const bool later_micro_batch = m.micro_batches > 1 && m.micro_batch > 0;
        auto it = later_micro_batch ? row_of.find(name) : row_of.end();
        const bool fresh = it == row_of.end();
        if (fresh) {
            if (m.micro_batches > 1) row_of[name] = rows.size();
            rows.push_back(Row{name, m});
        }
        Row& row = fresh ? rows.back() : rows[it->second];
        if (!fresh) {
            row.m.package_bytes += m.package_bytes;
            row.m.onchip_bytes += m.onchip_bytes;
            row.m.dram_bytes += m.dram_bytes;
            row.m.weight_multicasts += m.weight_multicasts;
            row.m.weight_dram_bytes_saved += m.weight_dram_bytes_saved;
            row.m.input_multicasts += m.input_multicasts;
            row.m.input_dram_bytes_saved += m.input_dram_bytes_saved;
            row.m.spilled_bytes += m.spilled_bytes;
            row.m.spilled_producers += m.spilled_producers;
            row.m.spill_dram_bytes_saved += m.spill_dram_bytes_saved;
            row.m.max_link_bytes = std::max(row.m.max_link_bytes, m.max_link_bytes);
            if (row.m.fallback.empty()) row.m.fallback = m.fallback;
        }
        auto [r, a] = routed_transfers(layer);
        row.routed += r;
        row.transfers += a;
        ++row.plan_layers;
        row.latency_ns += layers[l].latency_ns;
        row.uj += l < accounts.size() ? accounts[l]->total() / 1e6 : 0.0;
    }
    return rows;
}

/// The whole plan's figures the closing lines print.
struct Totals {
    std::size_t routed = 0, transfers = 0;
    int micro_batches = 0;
    std::int64_t package = 0, onchip = 0, dram = 0, dram_saved = 0, input_saved = 0, spilled = 0, spill_saved = 0;
};

/// The header and one line per row; returns the totals.
Totals print_rows(std::ostream& out, const std::vector<Row>& rows, bool placed) {
    char line[512];
    std::snprintf(line, sizeof line, "%-22s %-20s %-13s %-6s %-8s", "layer", "partition", "shares", "route", "coll.");
    out << line;
    if (placed) {
        std::snprintf(line, sizeof line, " %-3s %-11s %-4s", "seg", "group", "w");
        out << line;
    }
    std::snprintf(line, sizeof line, " %9s %9s %9s %9s %10s %10s\n", "pkg_MiB", "chip_MiB", "dram_MiB", "link_MiB", "pred_us",
                  "pred_uJ");
    out << line;
    Totals t;
    for (const Row& row : rows) {
        const PlanLayerMapping& m = row.m;
        t.routed += row.routed;
        t.transfers += row.transfers;
        t.package += m.package_bytes, t.onchip += m.onchip_bytes, t.dram += m.dram_bytes,
            t.dram_saved += m.weight_dram_bytes_saved;
        t.input_saved += m.input_dram_bytes_saved;
        t.spilled += m.spilled_bytes, t.spill_saved += m.spill_dram_bytes_saved;
        t.micro_batches = std::max(t.micro_batches, m.micro_batches);
        std::string coll = m.collective.empty() ? "-" : m.collective;
        if (m.weight_multicasts > 0) coll += "+w";
        if (m.input_multicasts > 0) coll += "+i";
        if (m.spilled_producers > 0) coll += "+s";
        if (!m.fallback.empty()) coll += "*";
        std::snprintf(line, sizeof line, "%-22.22s %-20.20s %-13.13s %-6.6s %-8.8s", row.name.c_str(),
                      m.partition.empty() ? "-" : m.partition.c_str(), shares_text(m).c_str(),
                      m.route.empty() ? "-" : m.route.c_str(), coll.c_str());
        out << line;
        if (placed) {
            const char* w = m.weights == WeightResidency::Resident ? "res" : (m.weights == WeightResidency::None ? "-" : "mb");
            std::snprintf(line, sizeof line, " %-3s %-11.11s %-4s", m.segment < 0 ? "-" : std::to_string(m.segment).c_str(),
                          group_text(m.group).c_str(), w);
            out << line;
        }
        std::snprintf(line, sizeof line, " %9.3f %9.3f %9.3f %9.3f %10.3f %10.3f\n", mib(m.package_bytes), mib(m.onchip_bytes),
                      mib(m.dram_bytes), mib(m.max_link_bytes), row.latency_ns / 1e3, row.uj);
        out << line;
    }
    return t;
}

}  // namespace

void print_map_summary(std::ostream& out, const Plan& plan, const Estimate& est) {
    bool placed = false;
    const std::vector<Row> rows = fold_rows(plan, est, placed);
    const Totals t = print_rows(out, rows, placed);
    char line[512];
    if (placed)
        out << "placement    layer-pipelined: seg = segment, group = its chiplet rows and columns, w = weights resident"
               " (res) or read again per micro-batch (mb)"
            << (t.micro_batches > 1 ? "; each row sums its layer's " + std::to_string(t.micro_batches) + " micro-batches"
                                    : std::string())
            << "\n";
    std::snprintf(line, sizeof line,
                  "bytes        %.3f MiB between chiplets, %.3f MiB served on-chip (kept off the package), %.3f MiB DRAM"
                  " (weight multicast saved %.3f MiB",
                  mib(t.package), mib(t.onchip), mib(t.dram), mib(t.dram_saved));
    out << line;
    // Only plans that multicast network inputs say so: the others print as before.
    if (t.input_saved > 0) {
        std::snprintf(line, sizeof line, ", input multicast saved %.3f MiB", mib(t.input_saved));
        out << line;
    }
    out << ")";
    // Only plans that spill say so: the others print as before.
    if (t.spilled > 0) {
        std::snprintf(line, sizeof line,
                      "; %.3f MiB of outputs spilled to DRAM (+s: did not fit a global buffer), parts several"
                      " chiplets need read once and forwarded (saved %.3f MiB)",
                      mib(t.spilled), mib(t.spill_saved));
        out << line;
    }
    out << "\n";
    std::snprintf(line, sizeof line,
                  "predicted    %.3f us, %.3f uJ, EDP %.4g J*s; %zu of %zu transfers carry a source route"
                  " (pkg = bytes between chiplets, chip = served on-chip, link = busiest package link;"
                  " +w = weights multicast%s; * = collective fell back to direct, see the plan)\n",
                  est.latency_ns / 1e3, est.ledger.total_pj() / 1e6, est.latency_ns * 1e-9 * est.ledger.total_pj() * 1e-12,
                  t.routed, t.transfers, t.input_saved > 0 ? ", +i = network inputs multicast" : "");
    out << line;
}

}  // namespace mcmsim
