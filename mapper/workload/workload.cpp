// Workload totals, graph queries, spec resolution and the shape/graph checks every workload
// (zoo or file) goes through before the mapper sees it.
#include "mapper/workload/workload.h"

#include "hw/common/input_error.h"
#include "mapper/workload/import/onnx_importer.h"
#include "mapper/workload/import/scalesim_importer.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <limits>
#include <set>

namespace mcmsim {

VectorOpClass vector_op_class(std::string_view op) {
    static constexpr std::pair<const char*, VectorOpClass> families[] = {
        {"maxpool", VectorOpClass::Window},     {"avgpool", VectorOpClass::Window},      {"add", VectorOpClass::Elementwise},
        {"sub", VectorOpClass::Elementwise},    {"mul", VectorOpClass::Elementwise},     {"div", VectorOpClass::Elementwise},
        {"softmax", VectorOpClass::Softmax},    {"layernorm", VectorOpClass::LayerNorm}, {"batchnorm", VectorOpClass::BatchNorm},
        {"concat", VectorOpClass::Movement},    {"reshape", VectorOpClass::Movement},    {"transpose", VectorOpClass::Movement},
        {"flatten", VectorOpClass::Movement},   {"identity", VectorOpClass::Movement},   {"squeeze", VectorOpClass::Movement},
        {"unsqueeze", VectorOpClass::Movement}, {"split", VectorOpClass::Movement},      {"slice", VectorOpClass::Movement},
        {"gather", VectorOpClass::Movement},    {"shape", VectorOpClass::Movement},      {"cast", VectorOpClass::Movement},
        {"pad", VectorOpClass::Movement},       {"dropout", VectorOpClass::Movement},    {"expand", VectorOpClass::Movement},
        {"tile", VectorOpClass::Movement}};
    for (const auto& [name, family] : families)
        if (op == name) return family;
    return VectorOpClass::Other;
}

std::int64_t vector_ops_per_output(const Layer& l) {
    switch (l.op_class) {
        case VectorOpClass::Window:
            return l.r * l.s;
        case VectorOpClass::Elementwise:
            return std::max<std::int64_t>(1, l.operands - 1);
        case VectorOpClass::Softmax:
            return 3;
        case VectorOpClass::LayerNorm:
            return 5;
        case VectorOpClass::BatchNorm:
            return 2;
        case VectorOpClass::Movement:
            return 0;
        case VectorOpClass::Other:
            break;
    }
    return 1;
}

std::int64_t Layer::vector_ops() const {
    if (kind != LayerKind::Vector) return 0;
    return fused_ops_per_item > 0 ? n * fused_ops_per_item : n * k * p * q * vector_ops_per_output(*this);
}

std::int64_t Workload::total_macs() const {
    std::int64_t sum = 0;
    for (const auto& l : layers) sum += l.macs();
    return sum;
}

std::int64_t Workload::total_weight_bytes() const {
    std::int64_t sum = 0;
    for (const auto& l : layers) sum += l.weight_bytes();
    return sum;
}

std::int64_t Workload::total_activation_bytes() const {
    std::int64_t sum = 0;
    for (const auto& l : layers) sum += l.input_bytes() + l.output_bytes();
    return sum;
}

std::int64_t Workload::total_vector_ops() const {
    std::int64_t sum = 0;
    for (const auto& l : layers) sum += l.vector_ops();
    return sum;
}

std::size_t Workload::mac_layer_count() const {
    std::size_t count = 0;
    for (const auto& l : layers) count += l.is_mac_layer() ? 1 : 0;
    return count;
}

std::vector<bool> Workload::is_output_layer() const {
    std::vector<bool> out(layers.size(), true);
    for (const auto& l : layers)
        for (int i : l.inputs)
            if (i >= 0 && static_cast<std::size_t>(i) < out.size()) out[i] = false;
    return out;
}

Workload mac_layers_only(const Workload& w) {
    Workload out;
    out.name = w.name;
    out.batch = w.batch;
    out.notes = w.notes;
    // For each old layer: the new indices of the MAC layers that stand behind it.
    std::vector<std::vector<int>> sources(w.layers.size());
    for (std::size_t i = 0; i < w.layers.size(); ++i) {
        const Layer& l = w.layers[i];
        std::vector<int> behind;  // MAC producers behind each input, in order, deduplicated
        std::vector<int> first;   // the first MAC producer behind each input (MatMul operands)
        for (int src : l.inputs) {
            const auto& s = sources[static_cast<std::size_t>(src)];
            if (!s.empty()) first.push_back(s.front());
            for (int x : s)
                if (std::find(behind.begin(), behind.end(), x) == behind.end()) behind.push_back(x);
        }
        if (!l.is_mac_layer()) {
            sources[i] = behind;
            continue;
        }
        Layer copy = l;
        copy.inputs = l.kind == LayerKind::MatMul ? first : behind;
        out.layers.push_back(std::move(copy));
        sources[i] = {static_cast<int>(out.layers.size()) - 1};
    }
    return out;
}

namespace {

bool has_extension(const std::string& path, const std::string& ext) {
    if (path.size() < ext.size()) return false;
    std::string tail = path.substr(path.size() - ext.size());
    std::transform(tail.begin(), tail.end(), tail.begin(), [](unsigned char ch) { return std::tolower(ch); });
    return tail == ext;
}

}  // namespace

Workload resolve_workload(const std::string& spec, std::int64_t batch) {
    const auto names = zoo_names();
    const std::string base = spec.substr(0, spec.find(':'));  // zoo options follow a colon
    if (std::find(names.begin(), names.end(), base) != names.end()) return zoo_workload(spec, batch > 0 ? batch : 1);

    if (!std::ifstream(spec)) {
        std::string list;
        for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
        throw InputError(spec, "", "a zoo name (" + list + ") or a workload file (.json, .onnx, .csv)", "\"" + spec + "\"");
    }
    if (has_extension(spec, ".onnx")) {
        OnnxImportOptions opt;
        opt.batch = batch;
        return import_onnx(spec, opt);
    }
    if (has_extension(spec, ".csv")) return import_scalesim_csv(spec, batch > 0 ? batch : 1);

    Workload wl = load_workload_file(spec);
    if (batch > 0) {  // an explicit batch overrides the file's
        wl.batch = batch;
        for (auto& l : wl.layers) l.n = batch;
        validate_workload(wl, spec);  // the larger batch may overflow the MAC count
    }
    return wl;
}

namespace {

std::string at(std::size_t i, const char* field) { return "/layers/" + std::to_string(i) + (*field ? "/" : "") + field; }

[[noreturn]] void bad(const std::string& file, std::size_t i, const char* field, const std::string& expected,
                      const std::string& found) {
    throw InputError(file, at(i, field), expected, found);
}

// a*b, or -1 on overflow (all operands are positive here).
std::int64_t mul(std::int64_t a, std::int64_t b) {
    if (a < 0 || b < 0 || (b != 0 && a > std::numeric_limits<std::int64_t>::max() / b)) return -1;
    return a * b;
}

void check_layer_shape(const Layer& l, std::size_t i, std::int64_t batch, const std::string& file) {
    struct Dim {
        const char* field;
        std::int64_t v;
    };
    for (const Dim& d : {Dim{"c", l.c}, Dim{"h", l.h}, Dim{"w", l.w}, Dim{"k", l.k}, Dim{"r", l.r}, Dim{"s", l.s},
                         Dim{"stride", l.stride}, Dim{"groups", l.groups}, Dim{"heads", l.heads}, Dim{"operands", l.operands},
                         Dim{"bytes_per_element", l.bytes_per_element}})
        if (d.v < 1) bad(file, i, d.field, "a positive integer", std::to_string(d.v));
    if (l.pad < 0) bad(file, i, "pad", "a non-negative integer", std::to_string(l.pad));
    if (l.n != batch)
        bad(file, i, "", "batch n = " + std::to_string(batch) + " (the workload's batch)", "n = " + std::to_string(l.n));
    if (l.kind != LayerKind::Vector && !l.op.empty())
        bad(file, i, "op", "no op (only vector layers name one)", "\"" + l.op + "\"");
    if (l.kind != LayerKind::MatMul && l.heads != 1)
        bad(file, i, "heads", "heads = 1 (only matmul layers have heads)", std::to_string(l.heads));
    if (l.kind != LayerKind::Vector && l.operands != 1)
        bad(file, i, "operands", "operands = 1 (only vector layers read several tensors)", std::to_string(l.operands));

    const bool windowed = l.kind == LayerKind::Conv || l.window_op();
    if (l.kind == LayerKind::Vector) {
        if (l.op.empty()) bad(file, i, "op", "the vector operation (e.g. \"softmax\")", "none");
        if (windowed && l.k != l.c)
            bad(file, i, "k", "k = c = " + std::to_string(l.c) + " (pooling keeps the channels)", std::to_string(l.k));
    }
    if (windowed) {
        if (l.c % l.groups != 0) bad(file, i, "groups", "a divisor of c = " + std::to_string(l.c), std::to_string(l.groups));
        if (l.k % l.groups != 0) bad(file, i, "groups", "a divisor of k = " + std::to_string(l.k), std::to_string(l.groups));
        if (l.r > l.h + 2 * l.pad)
            bad(file, i, "r", "a filter height no larger than h + 2*pad = " + std::to_string(l.h + 2 * l.pad),
                std::to_string(l.r));
        if (l.s > l.w + 2 * l.pad)
            bad(file, i, "s", "a filter width no larger than w + 2*pad = " + std::to_string(l.w + 2 * l.pad),
                std::to_string(l.s));
        const std::int64_t p = (l.h + 2 * l.pad - l.r) / l.stride + 1;
        const std::int64_t q = (l.w + 2 * l.pad - l.s) / l.stride + 1;
        if (l.p != p) bad(file, i, "p", "p = (h + 2*pad - r)/stride + 1 = " + std::to_string(p), std::to_string(l.p));
        if (l.q != q) bad(file, i, "q", "q = (w + 2*pad - s)/stride + 1 = " + std::to_string(q), std::to_string(l.q));
    } else if (l.p < 1 || l.q < 1) {
        bad(file, i, l.p < 1 ? "p" : "q", "a positive integer", std::to_string(std::min(l.p, l.q)));
    } else if (l.kind != LayerKind::Vector) {
        // FC and MatMul: rows h = p, everything else a 1×1 "conv".
        const char* what = l.kind == LayerKind::MatMul ? "a matmul layer" : "an fc layer";
        if (l.w != 1 || l.q != 1 || l.r != 1 || l.s != 1 || l.stride != 1 || l.pad != 0 || l.groups != 1)
            bad(file, i, "kind", std::string(what) + " to have w = q = r = s = stride = groups = 1, pad = 0",
                "other spatial parameters");
        if (l.p != l.h) bad(file, i, "p", "p = h = " + std::to_string(l.h) + " (the rows)", std::to_string(l.p));
    }

    // Keep every count the model derives from the layer within int64.
    std::int64_t macs = mul(l.n, l.heads);
    for (std::int64_t f : {l.k, l.p, l.q, l.c / l.groups, l.r, l.s}) macs = mul(macs, f);
    const std::int64_t bpe = l.bytes_per_element;
    std::int64_t in = mul(mul(mul(mul(mul(l.n, l.c), l.h), l.w), bpe), l.operands);
    std::int64_t wt = mul(mul(mul(mul(l.k, l.c / l.groups), l.r), l.s), bpe);
    std::int64_t out = mul(mul(mul(mul(mul(l.n, l.heads), l.k), l.p), l.q), bpe);
    std::int64_t ab = mul(mul(mul(mul(l.n, l.heads), l.p), l.c), bpe);
    std::int64_t bb = mul(mul(mul(mul(l.n, l.heads), l.c), l.k), bpe);
    std::int64_t vops = mul(mul(mul(mul(l.n, l.k), l.p), l.q), std::max<std::int64_t>(1, mul(l.r, l.s)));
    if (macs < 0 || in < 0 || wt < 0 || out < 0 || ab < 0 || bb < 0 || ab > std::numeric_limits<std::int64_t>::max() - bb ||
        vops < 0 || mul(l.r, l.s) < 0)
        bad(file, i, "", "a layer whose MAC and byte counts fit in 64 bits", "a larger layer");
}

// Channels a producer delivers to a Conv/FC consumer: a MatMul's heads are concatenated.
std::int64_t delivered_channels(const Layer& prod) { return prod.k * prod.heads; }

}  // namespace

void validate_workload(const Workload& w, const std::string& file) {
    if (w.batch < 1) throw InputError(file, "/batch", "a positive integer", std::to_string(w.batch));
    if (w.layers.empty()) throw InputError(file, "/layers", "at least one layer", "none");

    std::set<std::string> names;
    std::int64_t total = 0;
    for (std::size_t i = 0; i < w.layers.size(); ++i) {
        const Layer& l = w.layers[i];
        if (l.name.empty()) bad(file, i, "name", "a non-empty name", "\"\"");
        if (!names.insert(l.name).second) bad(file, i, "name", "a unique layer name", "a second layer \"" + l.name + "\"");
        check_layer_shape(l, i, w.batch, file);
        if (l.macs() > std::numeric_limits<std::int64_t>::max() - total)
            bad(file, i, "", "a workload whose total MACs fit in 64 bits", "a larger workload");
        total += l.macs();

        const bool matmul = l.kind == LayerKind::MatMul;
        if (matmul && l.inputs.size() > 2)
            throw InputError(file, at(i, "inputs"), "at most two producers (A, then B) for a matmul layer",
                             std::to_string(l.inputs.size()) + " entries");
        std::set<int> seen;
        for (std::size_t j = 0; j < l.inputs.size(); ++j) {
            const int src = l.inputs[j];
            const std::string where = at(i, "inputs") + "/" + std::to_string(j);
            if (src < 0 || static_cast<std::size_t>(src) >= i)
                throw InputError(file, where,
                                 i == 0 ? std::string("no inputs (the first layer reads the network input)")
                                        : "an earlier layer (index 0.." + std::to_string(i - 1) + ")",
                                 "layer index " + std::to_string(src));
            // A matmul may take both operands from one producer (QKᵀ from the qkv projection).
            if (!seen.insert(src).second && !matmul)
                throw InputError(file, where, "each producer listed once", "\"" + w.layers[src].name + "\" again");
            // The summed producers must all deliver the channels this layer reads. Vector
            // layers and matmul operands may reshape (heads, tokens), so only MAC-to-Conv/FC
            // edges are checked.
            const Layer& prod = w.layers[src];
            if (matmul || l.kind == LayerKind::Vector || prod.kind == LayerKind::Vector) continue;
            const std::int64_t ch = delivered_channels(prod);
            if (l.kind == LayerKind::Conv && ch != l.c)
                bad(file, i, "c", "c = " + std::to_string(ch) + " (the output channels of input \"" + prod.name + "\")",
                    std::to_string(l.c));
            if (l.kind == LayerKind::FullyConnected && l.c % ch != 0)
                bad(file, i, "c",
                    "a multiple of " + std::to_string(ch) + " (the output channels of input \"" + prod.name + "\", flattened)",
                    std::to_string(l.c));
        }
    }
}

}  // namespace mcmsim
