// Fuzzes what a Chakra trace goes through before `mcmsim simulate --chakra` runs it: the
// input is the ET of chiplet 0 of a one-chiplet trace, read by read_chakra (protobuf
// decoding, node and attribute checks, the rebuilt plan's validation). An accepted trace
// must survive the writer: written again and read back, it is the same plan.
#include "tests/fuzz/fuzz_common.h"
#include "traces/chakra/chakra_trace.h"

#include <unistd.h>
#include <filesystem>
#include <fstream>
#include <string>

using namespace mcmsim;

namespace {

/// This process's scratch directories (libFuzzer runs inputs one after another).
const std::string& scratch(const char* which) {
    static const std::string in =
        (std::filesystem::temp_directory_path() / ("mcmsim-fuzz-chakra-" + std::to_string(::getpid()))).string();
    static const std::string out = in + "-out";
    return which[0] == 'i' ? in : out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string& in = scratch("in");
    std::filesystem::create_directories(in);
    {
        std::ofstream f(in + "/mcmsim.0.et", std::ios::binary | std::ios::trunc);
        f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    }
    return fuzz::run_one([&] {
        const Plan plan = read_chakra(in);
        const std::string& out = scratch("out");
        std::filesystem::remove_all(out);
        write_chakra(plan, nullptr, out);
        fuzz::require_reads_back([&] { return plan_to_json(read_chakra(out)) == plan_to_json(plan); },
                                 "the written trace reads back to the same plan");
    });
}
