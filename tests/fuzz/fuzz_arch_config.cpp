// Fuzzes the arch-config reader: the text of an arch config file through parse_json_text and
// arch_from_document (presets resolved from the shipped configs/), then what `mcmsim config
// --dump` does with an accepted config. The dump must read back to itself (the round trip
// tests/hw/config/test_arch_config.cpp checks on the shipped configs).
#include "hw/config/arch_config.h"
#include "hw/config/json_input.h"
#include "hw/config/package_config.h"
#include "hw/config/presets.h"
#include "tests/fuzz/fuzz_common.h"

using namespace mcmsim;

namespace {

// In configs/arch/, so that preset references resolve as they do for a shipped config.
const std::string& input_path() {
    static const std::string path = default_config_dir() + "/arch/fuzz-input.json";
    return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return fuzz::run_one([&] {
        const std::string& path = input_path();
        const ArchConfig arch = arch_from_document(parse_json_text(fuzz::text_of(data, size), path), path);
        (void)arch_warnings(arch);
        const json dumped = arch_to_json(arch);
        fuzz::require_reads_back([&] { return arch_to_json(arch_from_document(dumped, path)) == dumped; },
                                 "the dump reads back to itself");
    });
}
