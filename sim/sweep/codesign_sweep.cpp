#include "sim/sweep/codesign_sweep.h"

#include "hw/common/input_error.h"
#include "hw/config/json_input.h"
#include "mapper/optimize/hardware_point.h"
#include "mapper/optimize/pareto.h"

#include <algorithm>
#include <numeric>

namespace mcmsim {

namespace {

Score score_of(const nlohmann::json& row) { return Score{row["latency_ns"].get<double>(), row["energy_pj"].get<double>()}; }

}  // namespace

CodesignResult run_codesign(const CodesignRequest& req, const nlohmann::json& mapping_options, const SweepWorkload& workload,
                            SweepRequest run) {
    const std::vector<HardwarePoint> hw = hardware_points(req.space.hardware);
    SweepSpec& spec = run.spec;
    spec.file = req.space.file.empty() ? "search space" : req.space.file;
    spec.base_file = req.base.file;
    spec.base = load_json_file(req.base.file);
    SweepAxis axis;
    axis.name = "hardware";
    axis.pointers = {"/name", "/package", "/memories"};
    for (const HardwarePoint& p : hw) {
        const nlohmann::json doc = apply_hardware(spec.base, p, req.space.hardware, req.space.file);
        axis.settings.push_back({doc.at("name"), doc.at("package"), doc.value("memories", nlohmann::json::array())});
        axis.labels.push_back(p.to_json());
    }
    spec.axes = {axis};
    spec.workloads = {workload};
    const bool baseline = req.mapping.optimizer != Optimizer::Uniform;
    spec.mappings = {nlohmann::json{{"optimizer", to_string(Optimizer::Uniform)}}};
    if (baseline) spec.mappings.push_back(mapping_options);
    spec.evaluators = {SweepEvaluator::Estimate};
    spec.objective = req.mapping.objective;
    spec.keep_plans = true;
    run.out_dir = req.out_dir;
    run.escalate = req.confirm > 0 ? req.confirm : -1;
    run.escalate_front = false;
    run.escalate_mapping = static_cast<int>(spec.mappings.size()) - 1;
    const SweepOutcome out = run_sweep(run, nullptr);

    // Rows come hardware point by hardware point, the mappings innermost.
    const nlohmann::json& rows = out.table["points"];
    const std::size_t per = spec.mappings.size();
    CodesignResult res;
    std::vector<double> model, sim;
    for (std::size_t i = 0; i < hw.size(); ++i) {
        const nlohmann::json& uniform = rows[i * per];
        const nlohmann::json& best = rows[i * per + per - 1];
        for (const nlohmann::json* r : {&uniform, &best})
            if (!r->contains("latency_ns"))
                throw InputError(spec.file, "/hardware", "hardware points that map and estimate",
                                 "point " + std::to_string(i) + " (" + hw[i].label() + ") " + (*r)["status"].get<std::string>() +
                                     ": " + r->value("reason", std::string()));
        CodesignPoint p;
        p.hw = hw[i];
        const std::string dir = req.out_dir + "/points/" + best["hash"].get<std::string>();
        p.arch_file = dir + "/arch.json";
        p.plan_file = dir + "/plan.json";
        p.uniform = score_of(uniform);
        p.best = score_of(best);
        if (best.contains("simulated") && best["simulated"].contains("latency_ns")) {
            p.simulated = score_of(best["simulated"]);
            model.push_back(p.best.value(req.mapping.objective));
            sim.push_back(p.simulated->value(req.mapping.objective));
        } else if (best.contains("simulated")) {
            throw InputError(spec.file, "/hardware", "a confirmation simulation that runs",
                             "point " + std::to_string(i) + ": " + best["simulated"].value("reason", std::string("failed")));
        }
        res.points.push_back(p);
    }
    std::vector<Score> scores;
    for (const auto& p : res.points) scores.push_back(p.best);
    res.front = pareto_front(scores);
    res.order.resize(res.points.size());
    std::iota(res.order.begin(), res.order.end(), 0);
    const Objective obj = req.mapping.objective;
    std::stable_sort(res.order.begin(), res.order.end(),
                     [&](std::size_t a, std::size_t b) { return scores[a].value(obj) < scores[b].value(obj); });
    for (std::size_t i = 1; i < res.points.size(); ++i)
        if (scores[i].value(Objective::Edp) < scores[res.best_edp].value(Objective::Edp)) res.best_edp = i;
    res.confirmed = model.size();
    // In the objective's order, as the summary lists the confirmed points.
    std::vector<double> m, s;
    for (std::size_t k : res.order)
        if (res.points[k].simulated) m.push_back(res.points[k].best.value(obj)), s.push_back(res.points[k].simulated->value(obj));
    res.kendall_tau = kendall_tau(m, s);
    return res;
}

}  // namespace mcmsim
