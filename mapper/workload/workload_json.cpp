// Workload files: a strict JSON reader. Every error names the file and the JSON pointer.
//
// { "name": "tiny", "batch": 2,                      // batch optional, default 1
//   "layers": [
//     { "name": "c1", "kind": "conv", "c": 3, "h": 32, "w": 32, "k": 16, "r": 3, "s": 3,
//       "stride": 1, "pad": 1, "groups": 1,          // optional: defaults 1, 0, 1
//       "inputs": [],                                // optional: default the previous layer
//       "bytes_per_element": 1 },                    // optional, default 1
//     { "name": "fc", "kind": "fc", "c": 16384, "k": 10, "inputs": ["c1"] } ] }
//
// An fc layer takes "c" (in features), "k" (out features) and optional "m" (rows per batch
// item, default 1: a transformer's token count). p and q are derived.
// A matmul layer (both operands activations, see workload.h) takes "m", "c" (the reduction
// length K), "k" (columns N) and optional "heads" (default 1); "inputs" lists the producers of
// A then B:  { "name": "qk", "kind": "matmul", "heads": 12, "m": 197, "c": 64, "k": 197,
//              "inputs": ["qkv", "qkv"] }
// A vector layer takes "op", "c", "h", "w", optional "operands" (default 1); "maxpool" and
// "avgpool" also take "r", "s", "stride", "pad" and derive p and q; other ops keep the shape:
//            { "name": "sm", "kind": "vector", "op": "softmax", "c": 12, "h": 197, "w": 197 }
#include "hw/config/json_input.h"
#include "mapper/workload/workload.h"

#include <limits>
#include <map>

namespace mcmsim {

namespace {

// Large enough for any real layer, small enough that h + 2*pad cannot overflow.
constexpr std::int64_t kMaxDim = std::int64_t(1) << 30;

std::int64_t out_size(std::int64_t in, std::int64_t pad, std::int64_t filter, std::int64_t stride) {
    const std::int64_t span = in + 2 * pad - filter;
    return span < 0 ? 0 : span / stride + 1;  // 0: filter larger than the input; validate reports it
}

// One entry of "inputs": a name or an index of an earlier layer.
int read_input_ref(const JsonNode& ref, std::size_t self, const std::map<std::string, std::size_t>& names) {
    const std::string expected = self == 0 ? std::string("no inputs (the first layer reads the network input)")
                                           : "the name or index (0.." + std::to_string(self - 1) + ") of an earlier layer";
    if (ref.is_string()) {
        const std::string name = ref.string();
        auto it = names.find(name);
        if (it == names.end()) ref.fail(expected, "unknown layer \"" + name + "\"");
        if (it->second >= self) ref.fail(expected, "\"" + name + "\" (layer " + std::to_string(it->second) + ", not earlier)");
        return static_cast<int>(it->second);
    }
    if (self == 0) ref.fail(expected);
    return static_cast<int>(ref.integer_in(0, static_cast<std::int64_t>(self) - 1));
}

Layer read_layer(const JsonNode& node, std::size_t index, std::int64_t batch, const std::map<std::string, std::size_t>& names) {
    JsonObject obj = node.object();
    Layer l;
    l.n = batch;
    l.name = obj.required("name").string();
    l.kind = obj.required("kind").choice<LayerKind>();
    if (l.kind == LayerKind::Vector) {
        l.set_op(obj.required("op").string());
        l.operands = obj.integer_in("operands", 1, 1, 64);
    }
    if (l.kind == LayerKind::MatMul) l.heads = obj.integer_in("heads", 1, 1, kMaxDim);
    l.c = obj.required("c").integer_in(1, kMaxDim);
    l.k = l.kind == LayerKind::Vector ? l.c : obj.required("k").integer_in(1, kMaxDim);
    const bool window = l.window_op();
    if (l.kind == LayerKind::Conv || l.kind == LayerKind::Vector) {
        l.h = obj.required("h").integer_in(1, kMaxDim);
        l.w = obj.required("w").integer_in(1, kMaxDim);
    }
    if (l.kind == LayerKind::Conv || window) {
        l.r = obj.required("r").integer_in(1, kMaxDim);
        l.s = obj.required("s").integer_in(1, kMaxDim);
        l.stride = obj.integer_in("stride", 1, 1, kMaxDim);
        l.pad = obj.integer_in("pad", 0, 0, kMaxDim);
        if (l.kind == LayerKind::Conv) l.groups = obj.integer_in("groups", 1, 1, kMaxDim);
        l.p = out_size(l.h, l.pad, l.r, l.stride);
        l.q = out_size(l.w, l.pad, l.s, l.stride);
    } else if (l.kind == LayerKind::Vector) {
        l.p = l.h;
        l.q = l.w;
    } else {
        l.h = l.p = obj.integer_in("m", 1, 1, kMaxDim);
    }
    if (auto inputs = obj.optional("inputs")) {
        for (const JsonNode& ref : inputs->array()) l.inputs.push_back(read_input_ref(ref, index, names));
    } else if (index > 0) {
        l.inputs = {static_cast<int>(index) - 1};  // a plain chain by default
    }
    l.bytes_per_element = obj.integer_in("bytes_per_element", 1, 1, 64);
    obj.finish();
    return l;
}

}  // namespace

Workload load_workload_file(const std::string& path) { return workload_from_json(load_json_file(path), path); }

Workload workload_from_json(const json& doc, const std::string& path) {
    JsonObject root = json_root(doc, path).object();

    Workload wl;
    wl.name = root.required("name").string();
    wl.batch = root.integer_in("batch", 1, 1, kMaxDim);
    const std::vector<JsonNode> layers = root.required("layers").array();
    root.finish();

    // Names first, so an input naming a later layer is told apart from a misspelt one.
    // The first occurrence wins; validate_workload reports duplicates.
    std::map<std::string, std::size_t> names;
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const json& v = layers[i].raw();
        if (v.is_object() && v.contains("name") && v["name"].is_string()) names.emplace(v["name"].get<std::string>(), i);
    }
    for (std::size_t i = 0; i < layers.size(); ++i) wl.layers.push_back(read_layer(layers[i], i, wl.batch, names));

    validate_workload(wl, path);
    return wl;
}

}  // namespace mcmsim
