// mcmsim workload (--model NAME | --onnx FILE | --scalesim-csv FILE) [--batch N] [--json]
// Prints the layer table of a zoo model or an imported one, or its summary and layers as JSON.
#include "hw/common/input_error.h"
#include "mapper/workload/import/onnx_importer.h"
#include "mapper/workload/import/scalesim_importer.h"
#include "sim/cli/cli_common.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <iostream>

namespace mcmsim::cli {

namespace {

// "conv 3x224x224 -> 64x112x112 7x7/2 p3", "fc 2048 -> 1000 x1 rows", ...
std::string shape_text(const Layer& l) {
    auto s = [](std::int64_t v) { return std::to_string(v); };
    switch (l.kind) {
        case LayerKind::Conv:
            return s(l.c) + "x" + s(l.h) + "x" + s(l.w) + " -> " + s(l.k) + "x" + s(l.p) + "x" + s(l.q) + "  " + s(l.r) +
                   "x" + s(l.s) + "/" + s(l.stride) + " pad " + s(l.pad) + (l.groups > 1 ? " groups " + s(l.groups) : "");
        case LayerKind::FullyConnected:
            return s(l.c) + " -> " + s(l.k) + (l.h > 1 ? "  rows " + s(l.h) : "");
        case LayerKind::MatMul:
            return s(l.heads) + " x [" + s(l.p) + "x" + s(l.c) + "]·[" + s(l.c) + "x" + s(l.k) + "]";
        case LayerKind::Vector:
            return l.op + "  " + (l.operands > 1 ? s(l.operands) + " x " : "") + s(l.c) + "x" + s(l.h) + "x" + s(l.w) +
                   " -> " + s(l.k) + "x" + s(l.p) + "x" + s(l.q);
    }
    return "";
}

nlohmann::json layer_json(const Layer& l, const Workload& w) {
    nlohmann::json j = {{"name", l.name}, {"kind", to_string(l.kind)}, {"macs", l.macs()},
                        {"weight_bytes", l.weight_bytes()}, {"input_bytes", l.input_bytes()},
                        {"output_bytes", l.output_bytes()}, {"n", l.n}, {"c", l.c}, {"h", l.h}, {"w", l.w},
                        {"k", l.k}, {"p", l.p}, {"q", l.q}};
    if (l.kind == LayerKind::Conv)
        j.update({{"r", l.r}, {"s", l.s}, {"stride", l.stride}, {"pad", l.pad}, {"groups", l.groups}});
    if (l.kind == LayerKind::FullyConnected || l.kind == LayerKind::MatMul) j["m"] = l.h;
    if (l.kind == LayerKind::MatMul) j["heads"] = l.heads;
    if (l.kind == LayerKind::Vector) {
        j.update({{"op", l.op}, {"operands", l.operands}, {"vector_ops", l.vector_ops()}});
        if (l.op == "maxpool" || l.op == "avgpool") j.update({{"r", l.r}, {"s", l.s}, {"stride", l.stride}, {"pad", l.pad}});
    }
    nlohmann::json inputs = nlohmann::json::array();
    for (int i : l.inputs) inputs.push_back(w.layers[static_cast<std::size_t>(i)].name);
    j["inputs"] = inputs;
    return j;
}

void print_table(const Workload& w) {
    std::printf("%-4s %-28s %-7s %16s %13s  %s\n", "#", "layer", "kind", "MACs", "weight B", "shape");
    for (std::size_t i = 0; i < w.layers.size(); ++i) {
        const Layer& l = w.layers[i];
        std::printf("%-4zu %-28s %-7s %16lld %13lld  %s\n", i, l.name.c_str(), to_string(l.kind),
                    static_cast<long long>(l.macs()), static_cast<long long>(l.weight_bytes()), shape_text(l).c_str());
    }
    std::printf("%s: batch %lld, %zu layers (%zu MAC layers), %lld MACs, %lld weight bytes, %lld activation bytes, "
                "%lld vector ops\n",
                w.name.c_str(), static_cast<long long>(w.batch), w.layers.size(), w.mac_layer_count(),
                static_cast<long long>(w.total_macs()), static_cast<long long>(w.total_weight_bytes()),
                static_cast<long long>(w.total_activation_bytes()), static_cast<long long>(w.total_vector_ops()));
}

}  // namespace

int cmd_workload(const std::vector<std::string>& args) {
    po::options_description o("workload options");
    o.add_options()("model", po::value<std::string>(), "zoo model (resnet50, vgg16, mobilenet_v2, vit_b16, gpt2_prefill, "
                                                       "gpt2_decode; options as gpt2_decode:seq=2048)")(
        "onnx", po::value<std::string>(), "ONNX model file")(
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
    if (vm.count("batch") && batch < 1) throw InputError("", "--batch", "a batch size >= 1", std::to_string(batch));

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

    if (vm["json"].as<bool>()) {
        nlohmann::json j = {{"name", w.name},
                            {"batch", w.batch},
                            {"total_macs", w.total_macs()},
                            {"weight_bytes", w.total_weight_bytes()},
                            {"activation_bytes", w.total_activation_bytes()},
                            {"vector_ops", w.total_vector_ops()},
                            {"mac_layers", w.mac_layer_count()},
                            {"notes", w.notes}};
        nlohmann::json layers = nlohmann::json::array();
        for (const auto& l : w.layers) layers.push_back(layer_json(l, w));
        j["layers"] = layers;
        std::cout << j.dump(2) << "\n";
    } else {
        print_table(w);
    }
    return kExitOk;
}

}  // namespace mcmsim::cli
