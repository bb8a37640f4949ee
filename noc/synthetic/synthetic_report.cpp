#include "noc/synthetic/synthetic_report.h"

#include <sstream>

namespace mcmsim {

namespace {

/// A figure of the report, or "n/a" where it is unknown (text and CSV; JSON has null).
std::string figure_or_na(const std::optional<double>& v) {
    if (!v) return "n/a";
    std::ostringstream os;
    os << *v;
    return os.str();
}

std::string saturation_reasons(const SaturationVerdict& v, const char* separator) {
    std::string out;
    auto add = [&](bool on, const char* name) {
        if (on) out += (out.empty() ? "" : separator) + std::string(name);
    };
    add(v.undelivered, "undelivered");
    add(v.not_drained, "not_drained");
    add(v.throughput, "throughput");
    add(v.backlog_growth, "backlog_growth");
    return out;
}

}  // namespace

nlohmann::json synthetic_conventions() {
    return {{"hops",
             "router-to-router links crossed by the packet's head; the injection and ejection channels are not counted, "
             "so a packet to its own router has 0 hops and one to a neighbouring router 1"},
            {"latency",
             "packet creation (entry into its source network interface's queue, so source queueing is included) to "
             "the ejection of its tail flit, router cycles"},
            {"zero_load_latency",
             "analytical, no contention or source queueing: the injection channel (ni_latency_cycles); at each of the "
             "H + 1 routers on the route, source and destination included, the router pipeline (RC + VA + SA + ST, RC "
             "left out with lookahead; body flits only SA + ST); on each of the H links latency_cycles + "
             "cycles_per_flit - 1; the ejection channel (ni_latency_cycles); the serialisation of the tail, L - 1 flits "
             "behind the head (one flit per cycle, cycles_per_flit apart over a slower link). Averaged over the pattern's "
             "source-destination pairs by probability, self pairs included. With uniform on-die links: "
             "2 ni_latency_cycles + (H + 1) P + H link latency + (L - 1)"},
            {"rates",
             "flits/node/cycle; offered: flits of the packets created in the measurement window, accepted: flits "
             "ejected in it"},
            {"undelivered",
             "a measured packet still inside at the drain limit: latency and hops are null, saturated is true, "
             "undelivered_packets counts them"}};
}

std::string synthetic_csv(const SyntheticRun& run) {
    std::ostringstream os;
    os << "rate,offered,accepted,avg_packet_latency_cycles,p99_packet_latency_cycles,avg_hops,"
          "zero_load_latency_cycles,saturated,flit_hops,max_link_utilization,wall_s,undelivered_packets,"
          "delivered_fraction,saturation_reasons\n";
    for (const SyntheticPoint& p : run.points)
        os << p.rate << ',' << p.offered << ',' << p.accepted << ',' << figure_or_na(p.avg_packet_latency) << ','
           << figure_or_na(p.p99_packet_latency) << ',' << figure_or_na(p.avg_hops) << ',' << p.zero_load_latency << ','
           << (p.saturated ? "true" : "false") << ',' << p.flit_hops << ',' << p.max_link_utilization << ',' << p.wall_s << ','
           << p.undelivered_packets << ',' << p.delivered_fraction() << ',' << saturation_reasons(p.saturation, ";") << '\n';
    return os.str();
}

nlohmann::json synthetic_point_json(const NocConfig& cfg, const SyntheticOptions& opt, const SyntheticRun& run,
                                    const EnergyLedger& ledger) {
    const SyntheticPoint& p = run.points.at(0);
    nlohmann::json j = p.to_json();
    j["traffic"] = to_string(opt.pattern);
    j["packet_flits"] = opt.packet_flits;
    j["config"] = cfg.name;
    j["latency_convention"] = "packet creation to tail ejection, router cycles";
    j["conventions"] = synthetic_conventions();
    j["flits_injected"] = run.flits_injected;
    j["flits_ejected"] = run.flits_ejected;
    j["order_violations"] = run.order_violations;
    j["threads"] = run.threads;
    j["energy_pj"] = ledger.breakdown_json();
    return j;
}

std::string synthetic_point_text(const NocConfig& cfg, const SyntheticOptions& opt, const SyntheticRun& run) {
    const SyntheticPoint& p = run.points.at(0);
    std::ostringstream out;
    out << "noc          " << cfg.name << ", " << to_string(opt.pattern) << ", " << opt.packet_flits << "-flit packets\n"
        << "offered      " << p.offered << " flits/node/cycle\n"
        << "accepted     " << p.accepted << " flits/node/cycle"
        << (p.saturated ? " (saturated: " + saturation_reasons(p.saturation, ", ") + ")" : "") << "\n"
        << "latency      avg " << figure_or_na(p.avg_packet_latency) << ", p99 " << figure_or_na(p.p99_packet_latency)
        << " cycles, creation to tail ejection (zero-load " << p.zero_load_latency << ")\n";
    if (p.undelivered_packets > 0)
        out << "undelivered  " << p.undelivered_packets << " of " << p.packets_measured
            << " measured packets still inside at the drain limit\n";
    out << "hops         " << figure_or_na(p.avg_hops) << " avg router-to-router links; " << p.flit_hops
        << " flit-hops, max link util " << p.max_link_utilization << "\n"
        << "wall         " << p.wall_s << " s (" << run.threads << (run.threads > 1 ? " threads" : " thread") << ")\n";
    return out.str();
}

}  // namespace mcmsim
