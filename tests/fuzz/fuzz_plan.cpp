// Fuzzes what a user's plan file goes through before `mcmsim simulate` / `estimate` run it:
// parse_json_text, plan_from_json (which validates), check_plan_fits against an arch, and the
// dense op index both evaluators build first. An accepted plan must also survive the writer:
// plan_to_json read back gives the same document.
#include "hw/config/arch_config.h"
#include "hw/config/json_input.h"
#include "hw/config/presets.h"
#include "tests/fuzz/fuzz_common.h"
#include "traces/plan/plan.h"
#include "traces/plan/plan_index.h"
#include "traces/plan/plan_routes.h"

#include <algorithm>
#include <filesystem>
#include <vector>

using namespace mcmsim;

namespace {

const char* const kFile = "fuzz-input.json";

/// The shipped arch configs, mcm-2x2 first: a plan is checked against the first one with
/// its chiplet and memory counts (so seeds made for other packages reach the route and
/// memory checks), else against mcm-2x2 (and fails the count check, as on the CLI).
const std::vector<ArchConfig>& arches() {
    static const std::vector<ArchConfig> all = [] {
        std::vector<std::string> paths;
        for (const auto& e : std::filesystem::directory_iterator(default_config_dir() + "/arch"))
            if (e.path().extension() == ".json") paths.push_back(e.path().string());
        std::sort(paths.begin(), paths.end(), [](const std::string& a, const std::string& b) {
            const bool a2 = a.find("mcm-2x2") != std::string::npos, b2 = b.find("mcm-2x2") != std::string::npos;
            return a2 != b2 ? a2 : a < b;
        });
        std::vector<ArchConfig> out;
        for (const auto& p : paths) out.push_back(load_arch_config(p));
        return out;
    }();
    return all;
}

const ArchConfig& arch_for(const Plan& plan) {
    for (const ArchConfig& a : arches())
        if (a.chiplet_count() == plan.chiplets && static_cast<int>(a.memories.size()) == plan.memories) return a;
    return arches().front();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    (void)arches();  // load once, outside the timed runs
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_one([&] {
        const Plan plan = plan_from_json(parse_json_text(fuzz::text_of(data, size), kFile), kFile);
        const json written = plan_to_json(plan);
        fuzz::require_reads_back([&] { return plan_to_json(plan_from_json(written, kFile)) == written; },
                                 "the written plan reads back to itself");
        check_plan_fits(plan, arch_for(plan), kFile);
        const PlanIndex index(plan);
        fuzz::require(index.size() == plan.op_count(), "the index holds every op");
    });
}
