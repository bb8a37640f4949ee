#include "traces/report/network_crosscheck.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <vector>

namespace mcmsim {

namespace {

double relative(double x, double reference) { return reference > 0 ? x / reference - 1 : (x > 0 ? 1.0 : 0.0); }

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct LinkFigures {
    double packet_bytes = 0, vc_bytes = 0, packet_busy_ns = 0, vc_busy_ns = 0;
};

// The package links of both reports by name (the packet model prefixes "link."; its NI and
// PHY links have no VC counterpart and stay out).
std::map<std::string, LinkFigures> link_figures(const nlohmann::json& packet, const nlohmann::json& vc, std::int64_t flit_bytes) {
    std::map<std::string, LinkFigures> links;
    const double packet_ns = packet.at("latency_ns").get<double>(), vc_ns = vc.at("latency_ns").get<double>();
    for (const auto& l : packet.at("stats").at("network").at("links")) {
        const std::string name = l.at("name").get<std::string>();
        if (name.rfind("link.", 0) != 0) continue;
        LinkFigures& f = links[name.substr(5)];
        f.packet_bytes = l.at("bytes").get<double>();
        f.packet_busy_ns = l.at("utilization").get<double>() * packet_ns;
    }
    for (const auto& l : vc.at("stats").at("network").at("links")) {
        LinkFigures& f = links[l.at("name").get<std::string>()];
        f.vc_bytes = l.at("flits").get<double>() * static_cast<double>(flit_bytes);
        f.vc_busy_ns = l.at("utilization").get<double>() * vc_ns;
    }
    return links;
}

}  // namespace

NetworkCrosscheck crosscheck_networks(const nlohmann::json& packet, const nlohmann::json& vc, std::int64_t flit_bytes) {
    using nlohmann::json;
    const double packet_ns = packet.at("latency_ns").get<double>(), vc_ns = vc.at("latency_ns").get<double>();
    const double packet_pj = packet.at("energy_pj").get<double>(), vc_pj = vc.at("energy_pj").get<double>();
    json layers = json::array();
    std::vector<double> errors;
    const auto& pl = packet.at("layers");
    const auto& vl = vc.at("layers");
    for (std::size_t i = 0; i < std::min(pl.size(), vl.size()); ++i) {
        const double pe = pl[i].at("end_ns").get<double>(), ve = vl[i].at("end_ns").get<double>();
        const double e = relative(pe, ve);
        errors.push_back(std::abs(e));
        layers.push_back({{"name", vl[i].at("name")}, {"packet_end_ns", pe}, {"vc_end_ns", ve}, {"end_error", e}});
    }
    json links = json::array();
    double most_bytes = 0;
    for (const auto& [name, f] : link_figures(packet, vc, flit_bytes)) {
        most_bytes = std::max(most_bytes, std::abs(f.packet_bytes - f.vc_bytes));
        links.push_back({{"name", name},
                         {"packet_bytes", f.packet_bytes},
                         {"vc_bytes", f.vc_bytes},
                         {"packet_busy_ns", f.packet_busy_ns},
                         {"vc_busy_ns", f.vc_busy_ns}});
    }
    const double med = median(errors), max = errors.empty() ? 0 : *std::max_element(errors.begin(), errors.end());
    NetworkCrosscheck out;
    out.json = {{"reference", "vc"},
                {"packet_latency_ns", packet_ns},
                {"vc_latency_ns", vc_ns},
                {"total_error", relative(packet_ns, vc_ns)},
                {"packet_energy_pj", packet_pj},
                {"vc_energy_pj", vc_pj},
                {"energy_error", relative(packet_pj, vc_pj)},
                {"median_abs_end_error", med},
                {"max_abs_end_error", max},
                {"max_link_bytes_difference", most_bytes},
                {"layers", layers},
                {"links", links}};
    char line[512];
    std::snprintf(line, sizeof line,
                  "packet %.3f us, vc %.3f us: total %+.1f %%, energy %+.1f %%; layer completion times: median %.1f %%, "
                  "max %.1f %%; link bytes differ by at most %.0f B\n",
                  packet_ns / 1000, vc_ns / 1000, 100 * relative(packet_ns, vc_ns), 100 * relative(packet_pj, vc_pj), 100 * med,
                  100 * max, most_bytes);
    out.summary = line;
    return out;
}

}  // namespace mcmsim
