// Fuzzes the workload-JSON reader: parse_json_text, workload_from_json (load_workload_file's
// reader, which validates), then, for an accepted workload, what `--batch N` does to it in
// resolve_workload: every layer takes the new batch and is validated again.
#include "hw/config/json_input.h"
#include "mapper/workload/workload.h"
#include "tests/fuzz/fuzz_common.h"

using namespace mcmsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const char* const file = "fuzz-input.json";
    return fuzz::run_one([&] {
        Workload w = workload_from_json(parse_json_text(fuzz::text_of(data, size), file), file);
        // A batch the file did not have: the MAC and byte counts grow, and must still be
        // checked for overflow.
        w.batch = 3;
        for (Layer& l : w.layers) l.n = w.batch;
        validate_workload(w, file);
    });
}
