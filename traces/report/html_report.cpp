#include "traces/report/html_report.h"

#include "hw/common/input_error.h"
#include "mapper/optimize/objective.h"
#include "traces/report/package_floorplan.h"
#include "traces/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>

namespace mcmsim {

namespace {

const char* kStyle =
    "body{font-family:sans-serif;margin:24px;color:#222;max-width:1000px}"
    "h1{font-size:20px}h2{font-size:16px;margin-top:28px;border-bottom:1px solid #ccc}"
    "table{border-collapse:collapse;font-size:12px}td,th{padding:2px 8px;text-align:right;border-bottom:1px solid #eee}"
    "td:first-child,th:first-child{text-align:left}.share{display:inline-block;height:10px;background:#0072B2}"
    ".ok{color:#070}.failed{color:#b00;font-weight:bold}.note{font-size:12px;color:#555}";

std::string page(const std::string& title, const std::string& body) {
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + xml_escape(title) + "</title><style>" +
           kStyle + "</style></head><body>\n<h1>" + xml_escape(title) + "</h1>\n" + body + "</body></html>\n";
}

std::string section(const std::string& id, const std::string& heading, const std::string& content) {
    return "<section id=\"" + id + "\"><h2>" + xml_escape(heading) + "</h2>\n" + content + "\n</section>\n";
}

std::string row(const std::vector<std::string>& cells, bool header = false) {
    std::string s = "<tr>";
    for (const std::string& c : cells) s += (header ? "<th>" : "<td>") + c + (header ? "</th>" : "</td>");
    return s + "</tr>";
}

std::string us(double ns) { return svg_num(ns / 1e3, 3); }
std::string uj(double pj) { return svg_num(pj / 1e6, 3); }
std::string pct(double f, int d = 1) { return svg_num(100 * f, d) + " %"; }
std::string sci(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4e", v);
    return buf;
}

std::string check(bool ok) { return ok ? "<span class=\"ok\">ok</span>" : "<span class=\"failed\">FAILED</span>"; }

std::string summary_table(const nlohmann::json& r) {
    const auto& c = r["checks"];
    std::string checks = "conservation " + check(c.value("conservation_ok", false));
    if (c.contains("ops_executed"))
        checks += " (" + std::to_string(c["ops_executed"].get<std::int64_t>()) + "/" +
                  std::to_string(c["ops_total"].get<std::int64_t>()) + " ops)";
    if (c.contains("causality_ok")) checks += ", causality " + check(c["causality_ok"].get<bool>());
    std::string t = "<table id=\"summary\">";
    t += row({"latency", us(r["latency_ns"].get<double>()) + " µs"});
    t += row({"energy", uj(r["energy_pj"].get<double>()) + " µJ"});
    t += row({"energy × delay", sci(r["edp_j_s"].get<double>()) + " J·s"});
    t += row({"MAC utilisation", pct(r["mac_utilization"].get<double>())});
    t += row({"MACs", std::to_string(r["macs"].get<std::int64_t>())});
    t += row({"checks", checks});
    return t + "</table>";
}

std::string energy_table(const nlohmann::json& r) {
    const double total = std::max(1e-30, r["energy_pj"].get<double>());
    std::string t = "<table id=\"energy\">" + row({"category", "µJ", "share", ""}, true);
    for (const auto& [k, v] : r["energy_breakdown_pj"].items()) {
        const double share = v.get<double>() / total;
        t += row({xml_escape(k), uj(v.get<double>()), pct(share),
                  "<span class=\"share\" style=\"width:" + svg_num(300 * share, 1) + "px\"></span>"});
    }
    return t + "</table>";
}

std::string layer_table(const nlohmann::json& r) {
    std::string t = "<details><summary>per-layer table</summary><table id=\"layers\">" +
                    row({"layer", "latency µs", "energy µJ", "compute µs", "comm µs", "DRAM µs", "MAC util."}, true);
    for (const auto& l : r["layers"])
        t += row({xml_escape(l["name"].get<std::string>()), us(l["latency_ns"].get<double>()), uj(l["energy_pj"].get<double>()),
                  us(l["compute_ns"].get<double>()), us(l["comm_ns"].get<double>()), us(l["dram_ns"].get<double>()),
                  pct(l["mac_utilization"].get<double>())});
    return t + "</table></details>";
}

std::vector<double> bin_centres_ns(const nlohmann::json& timeline) {
    std::vector<double> x;
    const double dt = timeline["bin_ns"].get<double>();
    for (int i = 0; i < timeline["bins"].get<int>(); ++i) x.push_back((i + 0.5) * dt);
    return x;
}

std::string layer_charts(const nlohmann::json& r) {
    std::vector<std::string> names;
    Series compute{"compute", {}}, comm{"communication", {}}, dram{"DRAM", {}}, energy{"energy", {}};
    for (const auto& l : r["layers"]) {
        names.push_back(l["name"].get<std::string>());
        compute.values.push_back(l["compute_ns"].get<double>());
        comm.values.push_back(l["comm_ns"].get<double>());
        dram.values.push_back(l["dram_ns"].get<double>());
        energy.values.push_back(l["energy_pj"].get<double>());
    }
    return stacked_bar_chart(names, {compute, comm, dram},
                             {"compute, communication and DRAM time per layer", "layer", "µs", 1e3}) +
           "<p class=\"note\">Each bar stacks the layer's busiest chiplet's compute time, its first-send-to-last-receive "
           "window and its longest DRAM access; they overlap in time, so a bar is not the layer's latency.</p>" +
           stacked_bar_chart(names, {energy}, {"energy per layer", "layer", "µJ", 1e6});
}

std::string activity_charts(const nlohmann::json& r) {
    const auto& a = r["activity"];
    const auto& tl = a["timeline"];
    const std::vector<double> x = bin_centres_ns(tl);
    std::vector<Series> mems, links;
    for (const auto& m : tl["memories"]) mems.push_back({m["name"].get<std::string>(), m["gbps"].get<std::vector<double>>()});
    for (const auto& l : tl["links"]) {
        Series s{l["name"].get<std::string>(), l["utilization"].get<std::vector<double>>()};
        for (double& v : s.values) v *= 100;
        links.push_back(s);
    }
    std::string out;
    if (!mems.empty()) out += line_chart(x, mems, {"DRAM bandwidth over time", "time (µs)", "GB/s", 1}, 1e3);
    if (!links.empty())
        out += line_chart(x, links, {"utilisation of the busiest links over time", "time (µs)", "% of link bandwidth", 1}, 1e3);
    out += "<p class=\"note\">" + svg_num(tl["bin_ns"].get<double>() / 1e3, 3) +
           " µs bins, reconstructed from the op times: each link (each memory) serves the transfers (accesses) reaching it "
           "first come, first served at its bandwidth from the start of their op.</p>";
    std::vector<std::string> names;
    Series util{"MAC utilisation", {}};
    for (const auto& c : a["chiplets"]) {
        names.push_back("c" + std::to_string(c["chiplet"].get<int>()));
        util.values.push_back(100 * c["mac_utilization"].get<double>());
    }
    return out + stacked_bar_chart(names, {util}, {"MAC utilisation per chiplet", "chiplet", "% of peak", 1});
}

}  // namespace

std::string report_html(const nlohmann::json& r) {
    const std::string title = "mcmsim " + r["model"].get<std::string>() + " report: " + r["workload"].get<std::string>() +
                              " on " + r["arch"].get<std::string>() + " (" + r["optimizer"].get<std::string>() + " mapping)";
    std::string body = section("summary-section", "Summary", summary_table(r)) +
                       section("energy-section", "Energy by category", energy_table(r)) +
                       section("layers-section", "Per layer", layer_charts(r) + layer_table(r)) +
                       section("floorplan", "Package floorplan", package_floorplan_svg(r)) +
                       section("activity-section", "Activity over time and per chiplet", activity_charts(r));
    return page(title, body);
}

namespace {

std::string validation_summary(const nlohmann::json& v) {
    const auto& lat = v["total_latency_ns"];
    const auto& en = v["total_energy_pj"];
    std::string t = "<table id=\"summary\">" + row({"", "analytical", "simulated", "error"}, true);
    t += row({"latency µs", us(lat["analytical"].get<double>()), us(lat["simulated"].get<double>()),
              pct(v["total_error"].get<double>(), 2)});
    t += row({"energy µJ", uj(en["analytical"].get<double>()), uj(en["simulated"].get<double>()),
              pct(v["energy_error"].get<double>(), 2)});
    t += row({"per-layer latency error", "median " + pct(v["median_abs_error"].get<double>(), 2),
              "max " + pct(v["max_abs_error"].get<double>(), 2), ""});
    t += row({"per-layer completion-time error", "median " + pct(v["median_abs_end_error"].get<double>(), 2),
              "max " + pct(v["max_abs_end_error"].get<double>(), 2), ""});
    return t + "</table><p class=\"note\">reference network model: " + xml_escape(v.value("reference", "")) +
           ", model granularity: " + xml_escape(v.value("granularity", "")) + "</p>";
}

}  // namespace

std::string validation_html(const nlohmann::json& v) {
    std::vector<double> x, end_model, end_sim, errors, lo, hi;
    Series model{"analytical", {}}, sim{"simulated", {}};
    Series model_end{"analytical", {}}, sim_end{"simulated", {}};
    bool band = true;
    std::string table = "<details><summary>per-layer table</summary><table id=\"layers\">" +
                        row({"layer", "analytical µs", "simulated µs", "error", "completion error"}, true);
    double cm = 0, cs = 0;
    for (const auto& l : v["layers"]) {
        x.push_back(static_cast<double>(x.size()));
        model.values.push_back(l["analytical_ns"].get<double>());
        sim.values.push_back(l["simulated_ns"].get<double>());
        cm += model.values.back(), cs += sim.values.back();
        model_end.values.push_back(cm);
        sim_end.values.push_back(cs);
        errors.push_back(100 * l["error"].get<double>());
        if (l.contains("simulated_spread_ns")) {
            lo.push_back(l["simulated_spread_ns"][0].get<double>());
            hi.push_back(l["simulated_spread_ns"][1].get<double>());
        } else {
            band = false;
        }
        table += row({xml_escape(l["name"].get<std::string>()), us(model.values.back()), us(sim.values.back()),
                      pct(l["error"].get<double>(), 2), pct(l["end_error"].get<double>(), 2)});
    }
    table += "</table></details>";
    const ChartText lat{
        "per-layer latency, analytical vs simulated" + std::string(band && !x.empty() ? " (band: the simulation's spread)" : ""),
        "layer (plan order)", "µs", 1e3};
    std::string charts = band && !x.empty() ? band_chart(x, {model, sim}, lo, hi, lat) : line_chart(x, {model, sim}, lat);
    charts += line_chart(x, {model_end, sim_end}, {"completion time after each layer", "layer (plan order)", "µs", 1e3, true});
    charts += histogram_chart(errors, 20, {"per-layer latency error distribution", "error (%)", "layers", 1});
    const std::string title = "mcmsim validation: " + v["workload"].get<std::string>() + " on " + v["arch"].get<std::string>();
    return page(title, section("summary-section", "Summary", validation_summary(v)) +
                           section("layers-section", "Per layer", charts + table));
}

namespace {

/// Per knob (`key` of each point: "hardware" or "axes"), per value in the value's own order
/// (numbers numerically): the best `figure` among the points with it.
std::map<std::string, std::map<nlohmann::json, double>> best_by_knob(const nlohmann::json& points, const std::string& key,
                                                                     const std::string& figure) {
    std::map<std::string, std::map<nlohmann::json, double>> best;
    for (const auto& p : points) {
        if (!p.contains(figure) || !p[figure].is_number() || !p.contains(key)) continue;
        const double v = p[figure].get<double>();
        for (const auto& [k, val] : p[key].items()) {
            auto [it, fresh] = best[k].emplace(val, v);
            if (!fresh) it->second = std::min(it->second, v);
        }
    }
    return best;
}

std::string knob_chart(const std::string& knob, const std::map<nlohmann::json, double>& values, const std::string& what,
                       const std::string& unit, double scale) {
    std::vector<std::string> labels;
    Series s{what, {}};
    for (const auto& [value, v] : values) {
        labels.push_back(value.is_number()   ? svg_num(value.get<double>(), 3)
                         : value.is_string() ? value.get<std::string>()
                                             : value.dump());
        s.values.push_back(v);
    }
    return stacked_bar_chart(labels, {s}, {what + " by " + knob, knob, unit, scale});
}

struct Figure {
    std::string key, name, unit;
    double scale;
};

Figure objective_figure(const std::string& objective) {
    switch (parse_choice<Objective>(objective).value_or(Objective::Edp)) {
        case Objective::Latency:
            return {"latency_ns", "best latency", "µs", 1e3};
        case Objective::Energy:
            return {"energy_pj", "best energy", "µJ", 1e6};
        case Objective::Edp:
            break;
    }
    return {"edp_j_s", "best EdP", "EdP (J·s)", 1};
}

}  // namespace

std::string codesign_html(const nlohmann::json& c) {
    std::vector<ScatterPoint> pts;
    std::string table = "<table id=\"points\">" + row({"point", "hardware", "latency µs", "energy µJ", "EdP J·s", "front"}, true);
    for (const auto& p : c["points"]) {
        pts.push_back({p["latency_ns"].get<double>(), p["energy_pj"].get<double>(), p["label"].get<std::string>(),
                       p["pareto"].get<bool>()});
        table += row({std::to_string(p["point"].get<int>()), xml_escape(p["label"].get<std::string>()),
                      us(p["latency_ns"].get<double>()), uj(p["energy_pj"].get<double>()), sci(p["edp_j_s"].get<double>()),
                      p["pareto"].get<bool>() ? "yes" : ""});
    }
    table += "</table>";
    std::string charts =
        scatter_chart(pts, {"latency vs energy (Pareto front highlighted)", "latency (µs)", "energy (µJ)", 1e6}, 1e3);
    for (const auto& [knob, values] : best_by_knob(c["points"], "hardware", "edp_j_s"))
        charts += knob_chart(knob, values, "best EdP", "EdP (J·s)", 1);
    const std::string title =
        "mcmsim co-design: " + c["workload"].get<std::string>() + " on " + c["base_arch"].get<std::string>();
    return page(title, section("front-section", "Pareto front and knobs", charts) + section("points-section", "Points", table));
}

std::vector<std::pair<std::string, std::string>> sweep_charts(const nlohmann::json& sweep) {
    std::vector<ScatterPoint> pts;
    const auto best = sweep.value("best_point", nlohmann::json());
    for (const auto& p : sweep["points"]) {
        if (!p.contains("latency_ns")) continue;  // not evaluated
        pts.push_back({p["latency_ns"].get<double>(), p["energy_pj"].get<double>(), p["label"].get<std::string>(),
                       p["pareto"].get<bool>(), !best.is_null() && p["point"] == best});
    }
    std::vector<std::pair<std::string, std::string>> out;
    out.emplace_back("pareto", scatter_chart(pts,
                                             {"latency vs energy (Pareto front highlighted, best " +
                                                  sweep["objective"].get<std::string>() + " ringed)",
                                              "latency (µs)", "energy (µJ)", 1e6},
                                             1e3));
    const Figure f = objective_figure(sweep["objective"].get<std::string>());
    const auto by_axis = best_by_knob(sweep["points"], "axes", f.key);
    for (std::size_t k = 0; k < sweep["axes"].size(); ++k) {
        const std::string name = sweep["axes"][k]["name"].get<std::string>();
        const auto it = by_axis.find(name);
        if (it != by_axis.end())
            out.emplace_back("axis_" + std::to_string(k), knob_chart(name, it->second, f.name, f.unit, f.scale));
    }
    return out;
}

std::string sweep_html(const nlohmann::json& sweep) {
    std::string charts;
    for (const auto& [name, svg] : sweep_charts(sweep)) charts += svg;
    std::string table =
        "<table id=\"points\">" + row({"point", "setting", "status", "latency µs", "energy µJ", "EdP J·s", "front"}, true);
    for (const auto& p : sweep["points"]) {
        const bool ok = p.contains("latency_ns");
        table +=
            row({std::to_string(p["point"].get<std::size_t>()), xml_escape(p["label"].get<std::string>()),
                 xml_escape(p["status"].get<std::string>() + (p.contains("reason") ? ": " + p["reason"].get<std::string>() : "")),
                 ok ? us(p["latency_ns"].get<double>()) : "", ok ? uj(p["energy_pj"].get<double>()) : "",
                 ok ? sci(p["edp_j_s"].get<double>()) : "", p["pareto"].get<bool>() ? "yes" : ""});
    }
    table += "</table>";
    std::string esc;
    if (sweep.contains("escalation"))
        esc = "<p>simulated " + std::to_string(sweep["escalation"]["simulated"].get<std::size_t>()) +
              " points; ranking agreement (Kendall tau) " + svg_num(sweep["escalation"]["kendall_tau"].get<double>(), 3) + "</p>";
    const std::string title =
        "mcmsim sweep: " + sweep["sweep"].get<std::string>() + " on " + sweep["base_arch"].get<std::string>();
    return page(title,
                section("front-section", "Pareto front and axes", charts + esc) + section("points-section", "Points", table));
}

}  // namespace mcmsim
