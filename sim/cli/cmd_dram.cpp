// mcmsim dram --preset NAME [--config FILE] [--pattern stream|random|strided] [--stride BYTES]
//             [--read-ratio F] [--requests N] [--seed S] [--json] [--check]
// The DRAM model on its own (hw/dram/dram_standalone.h).
#include "hw/dram/dram_standalone.h"
#include "sim/cli/cli_common.h"

#include <filesystem>
#include <iostream>

namespace mcmsim::cli {

namespace {

std::string preset_file(const std::string& name) {
    if (std::filesystem::exists(name)) return name;
    const std::string path = std::string(MCMSIM_CONFIG_DIR) + "/dram/" + name + ".json";
    if (!std::filesystem::exists(path))
        throw InputError("", "--preset", "a preset in " + std::string(MCMSIM_CONFIG_DIR) + "/dram/ or a file",
                         "\"" + name + "\"");
    return path;
}

void read_into(const std::string& path, DramConfig& d) {
    json doc = load_json_file(path);
    JsonObject o = json_root(doc, path).object();
    read_dram_fields(o, d);
}

}  // namespace

int cmd_dram(const std::vector<std::string>& args) {
    po::options_description o("dram options");
    o.add_options()("preset", po::value<std::string>(), "DRAM preset: a name in configs/dram/ or a file")(
        "config", po::value<std::string>(), "JSON object of overrides applied on top of the preset")(
        "pattern", po::value<std::string>()->default_value("stream"), "stream | random | strided")(
        "stride", po::value<std::int64_t>()->default_value(0), "strided: bytes between requests")(
        "read-ratio", po::value<double>()->default_value(1.0), "fraction of reads, 0..1")(
        "requests", po::value<std::int64_t>()->default_value(100000), "requests to simulate")(
        "request-bytes", po::value<std::int64_t>()->default_value(0), "bytes per request (default: one burst)")(
        "in-flight", po::value<std::int64_t>()->default_value(0), "transactions in flight (default: 32 per channel)")(
        "seed", po::value<std::int64_t>()->default_value(1), "random seed")(
        "json", po::bool_switch(), "print the results as JSON")("check", po::bool_switch(),
                                                                "replay every command through the timing checker");
    po::variables_map vm;
    if (!parse("dram", "--preset NAME [--config FILE] [--pattern P] [--requests N] [--json]", o, args, vm)) return kExitOk;

    const std::string name = required(vm, "preset");
    DramConfig cfg;
    read_into(preset_file(name), cfg);
    cfg.preset = name;
    if (vm.count("config")) read_into(vm["config"].as<std::string>(), cfg);

    DramTrafficConfig tc;
    tc.pattern = choice_option<DramPattern>(vm, "pattern");
    tc.read_ratio = vm["read-ratio"].as<double>();
    if (!(tc.read_ratio >= 0.0 && tc.read_ratio <= 1.0))
        throw InputError("", "--read-ratio", "a number in [0, 1]", std::to_string(tc.read_ratio));
    tc.requests = vm["requests"].as<std::int64_t>();
    // 10^9 requests take minutes already; more is a typo, not a study.
    constexpr std::int64_t kMaxRequests = 1000000000;
    if (tc.requests < 1 || tc.requests > kMaxRequests)
        throw InputError("", "--requests", "an integer in [1, " + std::to_string(kMaxRequests) + "]",
                         std::to_string(tc.requests));
    const std::int64_t stride = vm["stride"].as<std::int64_t>();
    if (stride < 0) throw InputError("", "--stride", "bytes >= 0", std::to_string(stride));
    tc.stride_bytes = static_cast<std::uint64_t>(stride);
    const std::int64_t rb = vm["request-bytes"].as<std::int64_t>();
    if (rb < 0 || rb > (1 << 20)) throw InputError("", "--request-bytes", "bytes in [1, 1048576]", std::to_string(rb));
    tc.request_bytes = static_cast<std::uint32_t>(rb ? rb : cfg.org.burst_bytes());
    const std::int64_t inflight = vm["in-flight"].as<std::int64_t>();
    // A million outstanding transactions is beyond any controller's tracking tables.
    constexpr std::int64_t kMaxInFlight = 1 << 20;
    if (inflight < 0 || inflight > kMaxInFlight)
        throw InputError("", "--in-flight", "an integer in [1, " + std::to_string(kMaxInFlight) + "] (0: the default)",
                         std::to_string(inflight));
    tc.max_in_flight = static_cast<int>(inflight ? inflight : cfg.units() * cfg.queue_depth);
    tc.seed = seed_option(vm);

    const DramStandaloneResult r = run_dram_standalone(cfg, name, tc, vm["check"].as<bool>());
    if (vm["json"].as<bool>()) std::cout << r.json.dump(2) << "\n";
    else std::cout << r.text;
    return r.timing_violations > 0 ? kExitCheckFailed : kExitOk;
}

}  // namespace mcmsim::cli
