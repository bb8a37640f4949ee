#include "sim/sweep/sweep_run.h"

#include "hw/common/input_error.h"
#include "mapper/optimize/pareto.h"
#include "traces/report/codesign.h"
#include "traces/report/html_report.h"
#include "traces/report/report.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>

namespace mcmsim {

namespace fs = std::filesystem;

namespace {

double objective_of(const nlohmann::json& figures, Objective o) {
    const char* key = o == Objective::Latency ? "latency_ns" : o == Objective::Energy ? "energy_pj" : "edp_j_s";
    const auto it = figures.find(key);
    return it == figures.end() || !it->is_number() ? std::numeric_limits<double>::infinity() : it->get<double>();
}

std::string label_of(const SweepSpec& spec, const SweepPoint& p) {
    std::string s;
    for (const SweepAxis& a : spec.axes) {
        const nlohmann::json& v = p.axes[a.name];
        s += (s.empty() ? "" : ", ") + a.name + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
    }
    if (spec.workloads.size() > 1) s += (s.empty() ? "" : ", ") + spec.workloads[p.workload].label();
    if (spec.mappings.size() > 1) s += (s.empty() ? "" : ", ") + spec.mappings[p.mapping].dump();
    if (spec.evaluators.size() > 1) s += (s.empty() ? "" : ", ") + std::string(to_string(p.evaluator));
    return s.empty() ? "base" : s;
}

/// The points to simulate in an escalation: the K best model points by the objective (of the
/// one mapping, when the request names one) and, unless told otherwise, every point of the
/// model's latency-energy front, in point order.
std::vector<std::size_t> escalation_choice(const SweepRequest& req, const std::vector<SweepPoint>& points,
                                           const SweepStore& store) {
    const SweepSpec& spec = req.spec;
    const int k = req.escalate;
    std::vector<std::size_t> ok;
    std::vector<Score> scores;
    std::vector<double> objective;
    for (const SweepPoint& p : points) {
        if (p.evaluator != SweepEvaluator::Estimate) continue;
        if (req.escalate_mapping >= 0 && p.mapping != static_cast<std::size_t>(req.escalate_mapping)) continue;
        const auto r = store.find(p.hash);
        if (!r || r->status != PointStatus::Ok) continue;
        ok.push_back(p.index);
        scores.push_back(Score{r->figures["latency_ns"].get<double>(), r->figures["energy_pj"].get<double>()});
        objective.push_back(objective_of(r->figures, spec.objective));
    }
    std::vector<std::size_t> order(ok.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return objective[a] < objective[b]; });
    std::vector<std::size_t> chosen;
    for (std::size_t i = 0; i < order.size() && static_cast<int>(i) < k; ++i) chosen.push_back(ok[order[i]]);
    if (req.escalate_front)
        for (std::size_t f : pareto_front(scores)) chosen.push_back(ok[f]);
    std::sort(chosen.begin(), chosen.end());
    chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
    return chosen;
}

}  // namespace

SweepOutcome run_sweep(const SweepRequest& req, const MpiSession* mpi) {
    const SweepSpec& spec = req.spec;
    const bool rank0 = !mpi || mpi->rank() == 0;
    std::error_code ec;
    fs::create_directories(req.out_dir, ec);
    if (ec) throw InputError(req.out_dir, "", "a directory that can be created", ec.message());
    const std::vector<SweepPoint> points = expand_sweep(spec, req.version);
    SweepOutcome out;
    out.points = points.size();
    std::unique_ptr<SweepStore> store;
    std::vector<std::size_t> ids;
    std::size_t done = 0, failed = 0;
    double best = std::numeric_limits<double>::infinity();
    if (rank0) {
        store = std::make_unique<SweepStore>(req.out_dir + "/sweep.sqlite");
        const std::set<std::string> have = store->recorded();
        for (const SweepPoint& p : points) {
            if (have.count(p.hash)) {
                ++out.reused, ++done;
                if (const auto r = store->find(p.hash); r && r->status == PointStatus::Ok)
                    best = std::min(best, objective_of(r->figures, spec.objective));
                continue;
            }
            if (!p.invalid.empty()) {
                store->record(p, spec.workloads[p.workload].label(),
                              PointResult{PointStatus::Invalid, p.invalid, nlohmann::json::object(), 0});
                ++out.invalid, ++done;
                continue;
            }
            ids.push_back(p.index);
        }
    }
    auto recorder = [&](const std::vector<SweepPoint>& candidates, std::size_t total) {
        return [&, total](std::size_t i, const PointResult& r) {
            const SweepPoint& p = candidates[i];
            store->record(p, spec.workloads[p.workload].label(), r);
            ++out.ran, ++done;
            if (r.status != PointStatus::Ok) ++failed, ++out.failed;
            else best = std::min(best, objective_of(r.figures, spec.objective));
            if (req.progress) req.progress(done, total, failed, best);
        };
    };
    ChildPool pool(req.self, req.out_dir, spec, req.jobs);
    auto run_jobs = [&](const std::vector<SweepPoint>& candidates, std::vector<std::size_t> jobs, std::size_t total) {
        const auto record = recorder(candidates, total);
        if (mpi) {
            mpi_run_jobs(*mpi, pool, candidates, std::move(jobs), record);
            return;
        }
        std::size_t next = 0;
        while (next < jobs.size() || pool.running()) {
            while (pool.has_slot() && next < jobs.size()) {
                pool.start(candidates[jobs[next]], jobs[next]);
                ++next;
            }
            for (const auto& [tag, r] : pool.reap(true)) record(tag, r);
        }
    };
    run_jobs(points, ids, points.size());

    std::vector<SweepPoint> escalated;
    if (req.escalate >= 0) {
        std::vector<std::size_t> chosen;
        if (rank0) chosen = escalation_choice(req, points, *store);
        if (mpi) mpi_broadcast(chosen);
        for (std::size_t i : chosen) escalated.push_back(with_evaluator(points[i], req.escalate_with, spec, req.version));
        std::vector<std::size_t> todo;
        if (rank0) {
            const std::set<std::string> have = store->recorded();
            for (std::size_t k = 0; k < escalated.size(); ++k)
                if (!have.count(escalated[k].hash)) todo.push_back(k);
            done = escalated.size() - todo.size();
        }
        run_jobs(escalated, todo, escalated.size());
    }
    if (!rank0) return out;

    out.table = sweep_table(spec, points, *store, escalated, false);
    write_json_file(out.table, req.out_dir + "/sweep.json");
    write_text_file(sweep_csv(out.table), req.out_dir + "/sweep.csv");
    for (const auto& [name, svg] : sweep_charts(out.table)) write_text_file(svg + "\n", req.out_dir + "/" + name + ".svg");
    write_text_file(sweep_html(out.table), req.out_dir + "/sweep.html");
    return out;
}

nlohmann::json sweep_table(const SweepSpec& spec, const std::vector<SweepPoint>& points, const SweepStore& store,
                           const std::vector<SweepPoint>& escalated, bool timings) {
    std::map<std::size_t, const SweepPoint*> escalation_of;
    for (const SweepPoint& e : escalated) escalation_of[e.index] = &e;
    nlohmann::json rows = nlohmann::json::array();
    std::vector<Score> scores;
    std::vector<std::size_t> ok;
    std::vector<double> model_obj, sim_obj;
    std::size_t best = points.size();
    double best_value = std::numeric_limits<double>::infinity();
    for (const SweepPoint& p : points) {
        nlohmann::json row = {{"point", p.index},
                              {"hash", p.hash},
                              {"label", label_of(spec, p)},
                              {"axes", p.axes},
                              {"workload", spec.workloads[p.workload].label()},
                              {"evaluator", to_string(p.evaluator)}};
        if (spec.mappings.size() > 1) row["mapping"] = spec.mappings[p.mapping];
        const auto r = store.find(p.hash);
        row["status"] = to_string(r ? r->status : PointStatus::Missing);
        if (r && !r->reason.empty()) row["reason"] = r->reason;
        if (r && r->status == PointStatus::Ok) {
            for (const auto& [k, v] : r->figures.items()) row[k] = v;
            ok.push_back(rows.size());
            scores.push_back(Score{r->figures["latency_ns"].get<double>(), r->figures["energy_pj"].get<double>()});
            const double v = objective_of(r->figures, spec.objective);
            if (v < best_value) best_value = v, best = p.index;
        }
        if (r && timings) row["wall_s"] = r->wall_s;
        if (const auto e = escalation_of.find(p.index); e != escalation_of.end()) {
            const auto s = store.find(e->second->hash);
            nlohmann::json sim = {{"evaluator", to_string(e->second->evaluator)},
                                  {"status", to_string(s ? s->status : PointStatus::Missing)}};
            if (s && s->status == PointStatus::Ok && r && r->status == PointStatus::Ok) {
                for (const char* k : {"latency_ns", "energy_pj", "edp_j_s"}) sim[k] = s->figures[k];
                sim["latency_error"] = r->figures["latency_ns"].get<double>() / s->figures["latency_ns"].get<double>() - 1;
                sim["energy_error"] = r->figures["energy_pj"].get<double>() / s->figures["energy_pj"].get<double>() - 1;
                model_obj.push_back(objective_of(r->figures, spec.objective));
                sim_obj.push_back(objective_of(s->figures, spec.objective));
            } else if (s && !s->reason.empty()) {
                sim["reason"] = s->reason;
            }
            row["simulated"] = sim;
        }
        row["pareto"] = false;
        rows.push_back(row);
    }
    nlohmann::json front = nlohmann::json::array();
    for (std::size_t f : pareto_front(scores)) {
        rows[ok[f]]["pareto"] = true;
        front.push_back(rows[ok[f]]["point"]);
    }
    nlohmann::json axes = nlohmann::json::array();
    for (const SweepAxis& a : spec.axes) axes.push_back({{"name", a.name}, {"pointers", a.pointers}});
    nlohmann::json t = {{"format", "mcmsim-sweep"},
                        {"version", 1},
                        {"sweep", fs::path(spec.file).filename().string()},
                        {"base_arch", fs::path(spec.base_file).stem().string()},
                        {"objective", to_string(spec.objective)},
                        {"axes", axes},
                        {"points", rows},
                        {"pareto_front", front}};
    if (best < points.size()) t["best_point"] = best;
    if (!escalated.empty())
        t["escalation"] = {{"simulated", model_obj.size()},
                           {"kendall_tau", model_obj.size() > 1 ? kendall_tau(model_obj, sim_obj) : 1.0}};
    return t;
}

std::vector<SweepPoint> recorded_escalations(const SweepSpec& spec, const std::vector<SweepPoint>& points,
                                             const SweepStore& store, const std::string& version) {
    const std::set<std::string> have = store.recorded();
    std::set<std::string> own;  // a sweep that simulates points itself has no escalation of them
    for (const SweepPoint& p : points) own.insert(p.hash);
    std::vector<SweepPoint> out;
    for (const SweepPoint& p : points) {
        if (p.evaluator != SweepEvaluator::Estimate) continue;
        for (SweepEvaluator e : {SweepEvaluator::Simulate, SweepEvaluator::SimulateVc}) {
            SweepPoint q = with_evaluator(p, e, spec, version);
            if (have.count(q.hash) && !own.count(q.hash)) {
                out.push_back(std::move(q));
                break;
            }
        }
    }
    return out;
}

std::string sweep_csv(const nlohmann::json& table) {
    std::vector<std::string> axes;
    for (const auto& a : table["axes"]) axes.push_back(a["name"].get<std::string>());
    const std::vector<std::string>& figures = sweep_figure_names();
    bool escalated = false, timings = false;
    for (const auto& r : table["points"]) escalated |= r.contains("simulated"), timings |= r.contains("wall_s");
    auto cell = [](const nlohmann::json& v) {
        if (v.is_null()) return std::string();
        std::string s = v.is_string() ? v.get<std::string>() : v.dump();
        if (s.find_first_of(",\"\n") != std::string::npos) {
            std::string q = "\"";
            for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
            return q + "\"";
        }
        return s;
    };
    std::ostringstream os;
    os << "point,hash";
    for (const std::string& a : axes) os << ',' << cell(a);
    os << ",workload,evaluator,status,reason";
    for (const std::string& f : figures) os << ',' << f;
    os << ",pareto";
    if (escalated) os << ",sim_status,sim_latency_ns,sim_energy_pj,sim_edp_j_s,latency_error,energy_error";
    if (timings) os << ",wall_s";
    os << '\n';
    const nlohmann::json null;
    for (const auto& r : table["points"]) {
        os << r["point"].get<std::size_t>() << ',' << r["hash"].get<std::string>();
        for (const std::string& a : axes) os << ',' << cell(r["axes"].value(a, null));
        os << ',' << cell(r["workload"]) << ',' << cell(r["evaluator"]) << ',' << cell(r["status"]) << ','
           << cell(r.value("reason", null));
        for (const std::string& f : figures) os << ',' << cell(r.value(f, null));
        os << ',' << (r["pareto"].get<bool>() ? "1" : "0");
        if (escalated) {
            const nlohmann::json s = r.value("simulated", nlohmann::json::object());
            os << ',' << cell(s.value("status", null));
            for (const char* k : {"latency_ns", "energy_pj", "edp_j_s", "latency_error", "energy_error"})
                os << ',' << cell(s.value(k, null));
        }
        if (timings) os << ',' << cell(r.value("wall_s", null));
        os << '\n';
    }
    return os.str();
}

}  // namespace mcmsim
