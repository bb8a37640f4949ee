#include "traces/report/validation.h"

#include "traces/report/layer_comparison.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace mcmsim {

namespace {

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double max_of(const std::vector<double>& v) { return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end()); }

std::vector<double> abs_of(std::vector<double> v) {
    for (double& x : v) x = std::fabs(x);
    return v;
}

/// printf into a string.
void appendf(std::string& out, const char* format, ...) __attribute__((format(printf, 2, 3)));
void appendf(std::string& out, const char* format, ...) {
    char line[1024];
    va_list args;
    va_start(args, format);
    std::vsnprintf(line, sizeof line, format, args);
    va_end(args);
    out += line;
}

nlohmann::json layer_json(const LayerErrorRow& r) {
    return {{"name", r.name},           {"analytical_ns", r.model_ns},   {"simulated_ns", r.sim_ns},
            {"error", r.error},         {"end_error", r.end_error},      {"analytical_pj", r.model_pj},
            {"simulated_pj", r.sim_pj}, {"energy_error", r.energy_error}};
}

}  // namespace

nlohmann::json RunComparison::errors_json() const {
    return {{"median_abs_error", median_abs_error},
            {"max_abs_error", max_abs_error},
            {"median_abs_end_error", median_abs_end_error},
            {"max_abs_end_error", max_abs_end_error},
            {"total_error", total_error},
            {"energy_error", energy_error}};
}

RunComparison compare_runs(const Plan& plan, const PlanIndex& index, const EvaluatedRun& model, const EvaluatedRun& sim,
                           const std::vector<LayerSummary>& sim_layers) {
    RunComparison c;
    c.model_layers = summarize_layers(plan, index, model.ops);
    std::vector<double> abs_errors, abs_end_errors;
    const auto& model_accounts = model.ledger.layer_accounts();
    const auto& sim_accounts = sim.ledger.layer_accounts();
    for (std::size_t l = 0; l < plan.layers.size(); ++l) {
        const LayerSummary& m = c.model_layers[l];
        const LayerSummary& s = sim_layers[l];
        LayerErrorRow r;
        r.name = m.name;
        r.model_ns = m.latency_ns;
        r.sim_ns = s.latency_ns;
        r.error = rel_error(m.latency_ns, s.latency_ns);
        r.end_error = rel_error(m.frontier_ns + m.latency_ns, s.frontier_ns + s.latency_ns);
        r.model_pj = l < model_accounts.size() ? model_accounts[l]->total() : 0.0;
        r.sim_pj = l < sim_accounts.size() ? sim_accounts[l]->total() : 0.0;
        r.energy_error = rel_error(r.model_pj, r.sim_pj);
        abs_errors.push_back(std::fabs(r.error));
        abs_end_errors.push_back(std::fabs(r.end_error));
        c.rows.push_back(std::move(r));
    }
    c.median_abs_error = median(abs_errors);
    c.max_abs_error = max_of(abs_errors);
    c.median_abs_end_error = median(abs_end_errors);
    c.max_abs_end_error = max_of(abs_end_errors);
    c.total_error = rel_error(model.latency_ns, sim.latency_ns);
    c.energy_error = rel_error(model.ledger.total_pj(), sim.ledger.total_pj());
    return c;
}

std::vector<double> errors_beyond(const RunComparison& c, const SimulationSpread& spread) {
    std::vector<double> out;
    for (std::size_t l = 0; l < c.rows.size(); ++l)
        out.push_back(error_beyond_spread(c.rows[l].model_ns, spread.min_ns[l], spread.max_ns[l], c.rows[l].sim_ns));
    return out;
}

namespace {

/// The per-layer rows of validation.json and the console table, and the notes on layers off
/// by more than 20 %.
nlohmann::json layer_rows(const RunComparison& cmp, const std::vector<double>& beyond, const SimulationSpread* spread,
                          const PlanIndex& index, const std::vector<OpTimes>& model_ops, const EvaluatedRun& sim,
                          const std::vector<LayerSummary>& sim_layers, std::string& table, std::vector<std::string>& notes) {
    appendf(table, "%-24s %14s %14s %8s %8s %14s %14s %8s\n", "layer", "model_us", "sim_us", "err", "end_err", "model_uJ",
            "sim_uJ", "err");
    nlohmann::json layers = nlohmann::json::array();
    for (std::size_t l = 0; l < cmp.rows.size(); ++l) {
        const LayerErrorRow& r = cmp.rows[l];
        nlohmann::json j = layer_json(r);
        if (spread) {
            j["simulated_spread_ns"] = {spread->min_ns[l], spread->max_ns[l]};
            j["error_beyond_spread"] = beyond[l];
        }
        if (std::fabs(r.error) > 0.2) {
            std::string why = explain_difference(cmp.model_layers[l], sim_layers[l], index, model_ops, sim.ops);
            if (spread && beyond[l] == 0)
                appendf(why, "%swithin the simulation's own spread (%.3f-%.3f us)", why.empty() ? "" : "; ",
                        spread->min_ns[l] / 1e3, spread->max_ns[l] / 1e3);
            j["explanation"] = why;
            if (!why.empty()) notes.push_back(r.name + ": " + why);
        }
        layers.push_back(j);
        appendf(table, "%-24s %14.3f %14.3f %7.1f%% %7.1f%% %14.3f %14.3f %7.1f%%\n", r.name.c_str(), r.model_ns / 1e3,
                r.sim_ns / 1e3, 100 * r.error, 100 * r.end_error, r.model_pj / 1e6, r.sim_pj / 1e6, 100 * r.energy_error);
    }
    return layers;
}

/// The console summary: totals, error figures, the search model's, the spread, the notes.
std::string summary_text(const EstimateOptions& options, const Estimate& model, const EvaluatedRun& sim, const RunComparison& cmp,
                         const std::optional<RunComparison>& search, const SimulationSpread* spread,
                         const std::vector<double>& abs_beyond, const nlohmann::json& out,
                         const std::vector<std::string>& notes) {
    std::string s;
    appendf(s, "\nmodel granularity: %s", to_string(options.granularity));
    if (options.granularity == Granularity::Packet) appendf(s, " (%d packets per event)", options.packets_per_event);
    appendf(s, "\n");
    appendf(s, "latency  model %.3f us, simulated %.3f us, error %+.1f%%\n", model.latency_ns / 1e3, sim.latency_ns / 1e3,
            100 * cmp.total_error);
    appendf(s, "energy   model %.3f uJ, simulated %.3f uJ, error %+.2f%%\n", model.ledger.total_pj() / 1e6,
            sim.ledger.total_pj() / 1e6, 100 * cmp.energy_error);
    appendf(s, "per-layer latency error: median %.1f%%, max %.1f%% (%zu layers)\n", 100 * cmp.median_abs_error,
            100 * cmp.max_abs_error, cmp.rows.size());
    appendf(s, "layer completion-time error: median %.1f%%, max %.1f%%\n", 100 * cmp.median_abs_end_error,
            100 * cmp.max_abs_end_error);
    if (search)
        appendf(s,
                "search model (message granularity, what the optimisers use): latency error %+.1f%%, per-layer median "
                "%.1f%%, max %.1f%%\n",
                100 * search->total_error, 100 * search->median_abs_error, 100 * search->max_abs_error);
    if (spread) {
        appendf(s,
                "simulation's own spread (router clock, link bandwidth, link latency, chiplet clock each ±%g%%, %zu "
                "runs): total %+.2f%% to %+.2f%%, a layer up to %.1f%%\n",
                100 * spread->step, spread->runs.size(), 100 * spread->min_total_change, 100 * spread->max_total_change,
                100 * spread->max_abs_layer_change);
        appendf(s, "per-layer latency error beyond that spread: median %.1f%%, max %.1f%%", 100 * median(abs_beyond),
                100 * max_of(abs_beyond));
        if (search)
            appendf(s, " (search model: median %.1f%%, max %.1f%%)",
                    100 * out["search_model"]["median_abs_error_beyond_spread"].get<double>(),
                    100 * out["search_model"]["max_abs_error_beyond_spread"].get<double>());
        appendf(s, "\n");
        for (const auto& f : spread->failed) appendf(s, "nudged simulation %s failed\n", f.c_str());
    }
    if (!notes.empty()) {
        appendf(s, "\nlayers off by more than 20%%, and what the simulation saw:\n");
        for (const auto& n : notes) s += "  " + n + "\n";
    }
    return s;
}

}  // namespace

ModelValidation validate_model(const ArchConfig& arch, const Plan& plan, const EstimateOptions& options, const Estimate& model,
                               const EvaluatedRun& sim, const nlohmann::json& sim_checks,
                               const std::vector<LayerSummary>& sim_layers, const SimulationSpread* spread) {
    ModelValidation v;
    const PlanIndex index(plan);
    const EvaluatedRun model_run{model.ops, model.ledger, model.latency_ns};
    const RunComparison cmp = compare_runs(plan, index, model_run, sim, sim_layers);
    const std::vector<double> beyond = spread ? errors_beyond(cmp, *spread) : std::vector<double>{};
    const std::vector<double> abs_beyond = abs_of(beyond);
    std::vector<std::string> notes;
    nlohmann::json layers = layer_rows(cmp, beyond, spread, index, model.ops, sim, sim_layers, v.layer_table, notes);
    nlohmann::json& out = v.json;
    out = {{"arch", arch.name},
           {"workload", plan.workload},
           {"optimizer", plan.optimizer},
           {"granularity", to_string(options.granularity)},
           {"layers", layers},
           {"total_latency_ns", {{"analytical", model.latency_ns}, {"simulated", sim.latency_ns}}},
           {"total_energy_pj", {{"analytical", model.ledger.total_pj()}, {"simulated", sim.ledger.total_pj()}}},
           {"simulation_checks", sim_checks}};
    out.update(cmp.errors_json());
    if (options.granularity == Granularity::Packet) out["packets_per_event"] = options.packets_per_event;
    // The optimisers search with the message granularity: how far off that model is on this
    // plan, so that an architect sees what the search trusts, not only the best the model can do.
    std::optional<RunComparison> search;
    if (options.granularity != Granularity::Message) {
        EstimateOptions message = options;
        message.granularity = Granularity::Message;
        const Estimate m = estimate_plan(arch, plan, message);
        search = compare_runs(plan, index, EvaluatedRun{m.ops, m.ledger, m.latency_ns}, sim, sim_layers);
        out["search_model"] = search->errors_json();
        out["search_model"]["granularity"] = to_string(Granularity::Message);
        if (spread) {
            const auto search_beyond = abs_of(errors_beyond(*search, *spread));
            out["search_model"]["median_abs_error_beyond_spread"] = median(search_beyond);
            out["search_model"]["max_abs_error_beyond_spread"] = max_of(search_beyond);
        }
    }
    if (spread) {
        out["sensitivity"] = spread->to_json();
        out["sensitivity"]["median_abs_error_beyond_spread"] = median(abs_beyond);
        out["sensitivity"]["max_abs_error_beyond_spread"] = max_of(abs_beyond);
        v.nudged_ok = spread->failed.empty();
    }
    v.summary = summary_text(options, model, sim, cmp, search, spread, abs_beyond, out, notes);
    return v;
}

}  // namespace mcmsim
