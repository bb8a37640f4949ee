// Fuzzes the ONNX importer on the model's bytes (import_onnx_bytes is what import_onnx runs on
// the mapped file): the protobuf wire reader, ONNX shape inference, the op readers and layer
// fusion. An accepted model is imported again with a batch set (`--batch`), which rewrites
// the graph inputs' batch dimension and takes the rebatching paths.
#include "mapper/workload/import/onnx_importer.h"
#include "tests/fuzz/fuzz_common.h"

using namespace mcmsim;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const char* const file = "fuzz-input.onnx";
    return fuzz::run_one([&] {
        (void)import_onnx_bytes(data, size, file);
        OnnxImportOptions batched;
        batched.batch = 3;
        (void)import_onnx_bytes(data, size, file, batched);
    });
}
