// Fuzzes the SCALE-Sim topology importer on the file's text (import_scalesim_text is the
// reader import_scalesim_csv runs on the file), with batch 1 and, for an accepted file, with
// a larger batch (`--batch`), which multiplies every count the importer checks for overflow.
#include "mapper/workload/import/scalesim_importer.h"
#include "tests/fuzz/fuzz_common.h"

using namespace mcmsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const char* const file = "fuzz-input.csv";
    return fuzz::run_one([&] {
        const std::string text = fuzz::text_of(data, size);
        (void)import_scalesim_text(text, file, 1);
        (void)import_scalesim_text(text, file, 1000);
    });
}
