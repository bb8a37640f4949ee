#include "traces/report/allocation_report.h"

namespace mcmsim {

double edp_j_s(const Score& s) { return s.latency_ns * s.energy_pj * 1e-21; }

namespace {

nlohmann::json allocation_json(const LinkAllocation& a) {
    nlohmann::json gbps = nlohmann::json::object(), links = nlohmann::json::object();
    for (const auto& [c, name] : ChoiceNames<LinkClass>::all) {
        const auto i = static_cast<std::size_t>(c);
        if (a.links[i] == 0) continue;
        gbps[name] = a.gbps[i];
        links[name] = a.links[i];
    }
    return {{"gbps", gbps},
            {"links", links},
            {"cost", a.cost},
            {"model", {{"latency_ns", a.score.latency_ns}, {"energy_pj", a.score.energy_pj}, {"edp_j_s", edp_j_s(a.score)}}}};
}

nlohmann::json totals(const nlohmann::json& report) {
    return {{"latency_ns", report.at("latency_ns")}, {"energy_pj", report.at("energy_pj")}, {"edp_j_s", report.at("edp_j_s")}};
}

}  // namespace

nlohmann::json allocation_report(const LinkCostModel& m, double budget, Objective objective, const LinkAllocation& allocated,
                                 const LinkAllocation& uniform, bool remapped) {
    return {{"cost_model", m.name},
            {"unit", m.unit},
            {"budget", budget},
            {"objective", to_string(objective)},
            {"evaluations", allocated.evaluations + uniform.evaluations},
            {"allocated", allocation_json(allocated)},
            {"uniform", allocation_json(uniform)},
            {"remapped", remapped}};
}

void add_simulated(nlohmann::json& report, const nlohmann::json& allocated_sim, const nlohmann::json& uniform_sim) {
    report["allocated"]["simulated"] = totals(allocated_sim);
    report["uniform"]["simulated"] = totals(uniform_sim);
}

}  // namespace mcmsim
