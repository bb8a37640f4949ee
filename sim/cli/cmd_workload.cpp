// mcmsim workload (--model NAME | --onnx FILE | --scalesim-csv FILE) [--batch N] [--json]
// Prints the layer table of a zoo model or an imported one, or its summary and layers as JSON.
#include "hw/common/input_error.h"
#include "mapper/workload/import/onnx_importer.h"
#include "mapper/workload/import/scalesim_importer.h"
#include "sim/cli/cli_common.h"
#include "traces/report/workload_summary.h"

#include <iostream>

namespace mcmsim::cli {

int cmd_workload(const std::vector<std::string>& args) {
    po::options_description o("workload options");
    o.add_options()("model", po::value<std::string>(),
                    "zoo model (resnet50, vgg16, mobilenet_v2, vit_b16, gpt2_prefill, "
                    "gpt2_decode; options as gpt2_decode:seq=2048)")("onnx", po::value<std::string>(), "ONNX model file")(
        "scalesim-csv", po::value<std::string>(), "SCALE-Sim topology CSV (convolution or GEMM format)")(
        "batch", po::value<std::int64_t>(), "batch size (default: the model's own, 1 for zoo models)")(
        "json", po::bool_switch(), "print total_macs, weight_bytes, activation_bytes and the layers as JSON");
    po::variables_map vm;
    if (!parse("workload", "(--model NAME | --onnx FILE | --scalesim-csv FILE) [--batch N] [--json]", o, args, vm))
        return kExitOk;
    const int sources = static_cast<int>(vm.count("model") + vm.count("onnx") + vm.count("scalesim-csv"));
    if (sources != 1)
        throw InputError("mcmsim workload", "command line", "exactly one of --model, --onnx, --scalesim-csv",
                         std::to_string(sources));
    std::int64_t batch = vm.count("batch") ? vm["batch"].as<std::int64_t>() : 0;
    if (vm.count("batch") && (batch < 1 || batch > kMaxBatch))
        throw InputError("", "--batch", "a batch size in [1, " + std::to_string(kMaxBatch) + "]", std::to_string(batch));

    Workload w;
    if (vm.count("model")) {
        w = zoo_workload(vm["model"].as<std::string>(), batch > 0 ? batch : 1);
    } else if (vm.count("onnx")) {
        OnnxImportOptions opt;
        opt.batch = batch;
        w = import_onnx(vm["onnx"].as<std::string>(), opt);
    } else {
        w = import_scalesim_csv(vm["scalesim-csv"].as<std::string>(), batch > 0 ? batch : 1);
    }
    for (const auto& note : w.notes) std::cerr << "mcmsim: " << note << "\n";

    if (vm["json"].as<bool>()) std::cout << workload_json(w).dump(2) << "\n";
    else std::cout << workload_table(w);
    return kExitOk;
}

}  // namespace mcmsim::cli
