#include "traces/report/workload_summary.h"

#include <cstdarg>
#include <cstdio>

namespace mcmsim {

namespace {

void appendf(std::string& out, const char* format, ...) __attribute__((format(printf, 2, 3)));
void appendf(std::string& out, const char* format, ...) {
    char line[1024];
    va_list args;
    va_start(args, format);
    std::vsnprintf(line, sizeof line, format, args);
    va_end(args);
    out += line;
}

// "conv 3x224x224 -> 64x112x112 7x7/2 p3", "fc 2048 -> 1000 x1 rows", ...
std::string shape_text(const Layer& l) {
    auto s = [](std::int64_t v) { return std::to_string(v); };
    switch (l.kind) {
        case LayerKind::Conv:
            return s(l.c) + "x" + s(l.h) + "x" + s(l.w) + " -> " + s(l.k) + "x" + s(l.p) + "x" + s(l.q) + "  " + s(l.r) + "x" +
                   s(l.s) + "/" + s(l.stride) + " pad " + s(l.pad) + (l.groups > 1 ? " groups " + s(l.groups) : "");
        case LayerKind::FullyConnected:
            return s(l.c) + " -> " + s(l.k) + (l.h > 1 ? "  rows " + s(l.h) : "");
        case LayerKind::MatMul:
            return s(l.heads) + " x [" + s(l.p) + "x" + s(l.c) + "]·[" + s(l.c) + "x" + s(l.k) + "]";
        case LayerKind::Vector:
            return l.op + "  " + (l.operands > 1 ? s(l.operands) + " x " : "") + s(l.c) + "x" + s(l.h) + "x" + s(l.w) + " -> " +
                   s(l.k) + "x" + s(l.p) + "x" + s(l.q);
    }
    return "";
}

nlohmann::json layer_json(const Layer& l, const Workload& w) {
    nlohmann::json j = {{"name", l.name},
                        {"kind", to_string(l.kind)},
                        {"macs", l.macs()},
                        {"weight_bytes", l.weight_bytes()},
                        {"input_bytes", l.input_bytes()},
                        {"output_bytes", l.output_bytes()},
                        {"n", l.n},
                        {"c", l.c},
                        {"h", l.h},
                        {"w", l.w},
                        {"k", l.k},
                        {"p", l.p},
                        {"q", l.q}};
    if (l.kind == LayerKind::Conv) j.update({{"r", l.r}, {"s", l.s}, {"stride", l.stride}, {"pad", l.pad}, {"groups", l.groups}});
    if (l.kind == LayerKind::FullyConnected || l.kind == LayerKind::MatMul) j["m"] = l.h;
    if (l.kind == LayerKind::MatMul) j["heads"] = l.heads;
    if (l.kind == LayerKind::Vector) {
        j.update({{"op", l.op}, {"operands", l.operands}, {"vector_ops", l.vector_ops()}});
        if (l.window_op()) j.update({{"r", l.r}, {"s", l.s}, {"stride", l.stride}, {"pad", l.pad}});
    }
    nlohmann::json inputs = nlohmann::json::array();
    for (int i : l.inputs) inputs.push_back(w.layers[static_cast<std::size_t>(i)].name);
    j["inputs"] = inputs;
    return j;
}

}  // namespace

std::string workload_table(const Workload& w) {
    std::string out;
    appendf(out, "%-4s %-28s %-7s %16s %13s  %s\n", "#", "layer", "kind", "MACs", "weight B", "shape");
    for (std::size_t i = 0; i < w.layers.size(); ++i) {
        const Layer& l = w.layers[i];
        appendf(out, "%-4zu %-28s %-7s %16lld %13lld  %s\n", i, l.name.c_str(), to_string(l.kind),
                static_cast<long long>(l.macs()), static_cast<long long>(l.weight_bytes()), shape_text(l).c_str());
    }
    appendf(out,
            "%s: batch %lld, %zu layers (%zu MAC layers), %lld MACs, %lld weight bytes, %lld activation bytes, "
            "%lld vector ops\n",
            w.name.c_str(), static_cast<long long>(w.batch), w.layers.size(), w.mac_layer_count(),
            static_cast<long long>(w.total_macs()), static_cast<long long>(w.total_weight_bytes()),
            static_cast<long long>(w.total_activation_bytes()), static_cast<long long>(w.total_vector_ops()));
    return out;
}

nlohmann::json workload_json(const Workload& w) {
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
    return j;
}

}  // namespace mcmsim
