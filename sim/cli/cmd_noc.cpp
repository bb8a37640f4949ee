// mcmsim noc: the flit-level VC network alone, under synthetic traffic.
//
//   mcmsim noc --config configs/noc/mesh8x8.json --traffic uniform --rate 0.1 --json
//   mcmsim noc --config ... --rates 0.02:0.5:0.04 --out curve.csv
//
// Latency is counted from packet creation (entry into the source queue) to the ejection of
// the tail flit, in router cycles; see noc/synthetic/zero_load_model.h for the analytical reference.
// A point whose measured packets were not all out by the drain limit is a result, not a
// failure: it says so in its fields (null latency, undelivered_packets, saturated) and the
// exit status stays 0, so that a sweep which ends on such a point still writes its curve.
// Only a deadlock exits non-zero.
#include "hw/common/input_error.h"
#include "noc/synthetic/synthetic_report.h"
#include "sim/cli/cli_common.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace mcmsim::cli {

namespace {

std::vector<double> parse_rates(const std::string& spec) {
    // A:B:STEP, inclusive of B (within rounding).
    double a = 0, b = 0, step = 0;
    char c1 = 0, c2 = 0;
    std::istringstream in(spec);
    if (!(in >> a >> c1 >> b >> c2 >> step) || c1 != ':' || c2 != ':' || !in.eof() || !(a > 0) || !(b >= a) || !(step > 0) ||
        b > 1.0)
        throw InputError("", "--rates", "A:B:STEP with 0 < A <= B <= 1 and STEP > 0", "\"" + spec + "\"");
    std::vector<double> out;
    for (int i = 0; a + i * step <= b + 1e-9 && i < 10000; ++i) out.push_back(a + i * step);
    return out;
}

}  // namespace

int cmd_noc(const std::vector<std::string>& args) {
    po::options_description o("noc options");
    o.add_options()("config", po::value<std::string>(), "NoC config (JSON), e.g. configs/noc/mesh8x8.json")(
        "traffic", po::value<std::string>()->default_value("uniform"),
        "uniform | transpose | bitcomp | bitrev | shuffle | hotspot | neighbor")(
        "rate", po::value<double>()->default_value(0.1, "0.1"), "injection rate, flits/node/cycle (Bernoulli)")(
        "rates", po::value<std::string>(), "A:B:STEP: a latency-vs-load curve (CSV), stops after saturation")(
        "packet-flits", po::value<int>(), "flits per packet (default: the config's)")(
        "warmup", po::value<std::int64_t>()->default_value(1000), "warm-up cycles")(
        "cycles", po::value<std::int64_t>()->default_value(10000), "measurement cycles")(
        "drain-limit", po::value<std::int64_t>()->default_value(0), "give up draining after this many cycles (0: auto)")(
        "seed", po::value<std::int64_t>()->default_value(1), "random seed")(
        "threads", po::value<int>()->default_value(1),
        "threads stepping the routers (bands of rows each); the result does not depend on it")(
        "json", po::bool_switch(), "print one JSON object")("out", po::value<std::string>(),
                                                            "with --rates: write the CSV here instead of stdout");
    po::variables_map vm;
    if (!parse("noc", "--config FILE [--traffic P] [--rate R | --rates A:B:STEP] [--packet-flits N] [--json]", o, args, vm))
        return kExitOk;
    NocConfig cfg = load_noc_config(required(vm, "config"));
    SyntheticOptions opt;
    opt.pattern = choice_option<TrafficPattern>(vm, "traffic");
    const bool sweep = vm.count("rates") > 0;
    if (sweep) {
        opt.rates = parse_rates(vm["rates"].as<std::string>());
    } else {
        double r = vm["rate"].as<double>();
        if (!(r >= 0 && r <= 1)) throw InputError("", "--rate", "a rate in [0, 1] flits/node/cycle", std::to_string(r));
        opt.rates = {r};
    }
    opt.packet_flits = vm.count("packet-flits") ? vm["packet-flits"].as<int>() : cfg.packet_flits;
    if (opt.packet_flits < 1 || opt.packet_flits > 1024)
        throw InputError("", "--packet-flits", "1..1024 flits", std::to_string(opt.packet_flits));
    opt.warmup = vm["warmup"].as<std::int64_t>();
    opt.measure = vm["cycles"].as<std::int64_t>();
    opt.drain_limit = vm["drain-limit"].as<std::int64_t>();
    // 10^9 cycles of a mesh take hours already; bounded, a point's cycle counts (warm-up,
    // window, ten windows of drain, over every rate) stay far inside 64 bits.
    constexpr std::int64_t kMaxCycles = 1000000000;
    if (opt.drain_limit < 0 || opt.drain_limit > kMaxCycles)
        throw InputError("", "--drain-limit", "a number of cycles in [0, 10^9] (0: automatic)", std::to_string(opt.drain_limit));
    if (opt.warmup < 0 || opt.warmup > kMaxCycles)
        throw InputError("", "--warmup", "cycles in [0, 10^9]", std::to_string(opt.warmup));
    if (opt.measure < 1 || opt.measure > kMaxCycles)
        throw InputError("", "--cycles", "cycles in [1, 10^9]", std::to_string(opt.measure));
    opt.seed = seed_option(vm);
    opt.threads = vm["threads"].as<int>();
    if (opt.threads < 1 || opt.threads > 64) throw InputError("", "--threads", "1..64 threads", std::to_string(opt.threads));

    EnergyLedger ledger;
    SyntheticRun run = run_synthetic(cfg, opt, &ledger);
    if (run.deadlocked) {
        std::string who;
        for (const std::string& s : run.stuck_routers) who += (who.empty() ? "" : "; ") + s;
        std::cerr << "mcmsim: error: network deadlocked (watchdog at cycle " << run.deadlock_cycle << "), stuck routers: " << who
                  << "\n";
        return kExitCheckFailed;
    }
    if (sweep) {
        if (vm.count("out")) {
            std::ofstream f(vm["out"].as<std::string>());
            if (!f) throw InputError(vm["out"].as<std::string>(), "", "a writable file", "none");
            f << synthetic_csv(run);
        } else {
            std::cout << synthetic_csv(run);
        }
        return kExitOk;
    }
    if (vm["json"].as<bool>()) std::cout << synthetic_point_json(cfg, opt, run, ledger).dump() << "\n";
    else std::cout << synthetic_point_text(cfg, opt, run);
    return kExitOk;
}

}  // namespace mcmsim::cli
