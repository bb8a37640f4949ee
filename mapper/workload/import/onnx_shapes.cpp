// ONNX shape rules for the ops the importer propagates (see onnx_shapes.h). Everything here
// works on fully known shapes only: an unknown input makes the output unknown.
#include "mapper/workload/import/onnx_shapes.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>

namespace mcmsim::onnx {

namespace {

std::int64_t attr_i(const Node& n, const std::string& name, std::int64_t def) {
    auto it = n.attrs.find(name);
    return it != n.attrs.end() && it->second.i ? *it->second.i : def;
}

const std::vector<std::int64_t>* attr_ints(const Node& n, const std::string& name) {
    auto it = n.attrs.find(name);
    return it != n.attrs.end() && !it->second.ints.empty() ? &it->second.ints : nullptr;
}

std::string attr_s(const Node& n, const std::string& name) {
    auto it = n.attrs.find(name);
    return it != n.attrs.end() ? it->second.s : std::string();
}

// Normalises a possibly negative axis against `rank`; -1 when out of range.
std::int64_t axis_of(std::int64_t axis, std::size_t rank) {
    const auto r = static_cast<std::int64_t>(rank);
    if (axis < 0) axis += r;
    return axis >= 0 && axis < r ? axis : -1;
}

std::optional<Shape> broadcast(const std::vector<InputFacts>& in) {
    Shape out;
    for (const auto& f : in) {
        if (!f.shape) return std::nullopt;
        const Shape& s = *f.shape;
        if (s.size() > out.size()) out.insert(out.begin(), s.size() - out.size(), 1);
        for (std::size_t i = 0; i < s.size(); ++i) {
            std::int64_t& o = out[out.size() - s.size() + i];
            if (o == 1) o = s[i];
            else if (s[i] != 1 && s[i] != o) return std::nullopt;
        }
    }
    return out;
}

// Axes from the attribute (older opsets) or the second input (opset 13+).
std::optional<std::vector<std::int64_t>> axes_of(const Node& n, const std::vector<InputFacts>& in) {
    if (const auto* a = attr_ints(n, "axes")) return *a;
    if (in.size() > 1 && in[1].ints) return *in[1].ints;
    return std::nullopt;
}

std::optional<Shape> reshape(const Shape& in, const std::vector<std::int64_t>& target) {
    Shape out;
    int infer = -1;
    std::int64_t known = 1;
    for (std::size_t i = 0; i < target.size(); ++i) {
        std::int64_t d = target[i];
        if (d == 0) d = i < in.size() ? in[i] : -2;  // 0 copies the input dim
        if (d == -1) {
            if (infer >= 0) return std::nullopt;
            infer = static_cast<int>(i);
        } else if (d < 0) {
            return std::nullopt;
        } else {
            // A target the importer would refuse (within_limits) has no shape here either.
            if (d > kMaxTensorDim || (d > 0 && known > kMaxTensorElements / d)) return std::nullopt;
            known *= d;
        }
        out.push_back(d);
    }
    const std::int64_t total = product(in, 0, in.size());
    if (infer >= 0) {
        if (known == 0 || total % known != 0) return std::nullopt;
        out[static_cast<std::size_t>(infer)] = total / known;
    } else if (known != total) {
        return std::nullopt;
    }
    return out;
}

}  // namespace

bool fully_known(const Shape& s) {
    return std::all_of(s.begin(), s.end(), [](std::int64_t d) { return d >= 0; });
}

bool within_limits(const Shape& s) {
    std::int64_t elements = 1;
    for (std::int64_t d : s) {
        if (d < 0 || d > kMaxTensorDim) return false;
        if (d == 0) continue;
        if (elements > kMaxTensorElements / d) return false;
        elements *= d;
    }
    return true;
}

std::int64_t product(const Shape& s, std::size_t from, std::size_t to) {
    std::int64_t p = 1;
    for (std::size_t i = from; i < to && i < s.size(); ++i) p *= s[i];
    return p;
}

std::string shape_text(const Shape& s) {
    std::string t = "[";
    for (std::size_t i = 0; i < s.size(); ++i) t += (i ? "," : "") + std::to_string(s[i]);
    return t + "]";
}

std::optional<std::int64_t> symmetric_pad(std::int64_t h, std::int64_t w, std::int64_t r, std::int64_t s, std::int64_t stride,
                                          std::int64_t p, std::int64_t q) {
    // The smallest pad in [0, max(r, s)] with (n + 2·pad − k) / stride + 1 == out and
    // n + 2·pad >= k on both axes, that is (out − 1)·stride <= n + 2·pad − k < out·stride:
    // an interval of pads per axis, intersected. In 128 bits: window attributes and pool
    // kernels are the file's integers, unbounded.
    if (stride < 1 || p < 1 || q < 1) return std::nullopt;
    using Wide = __int128;
    auto floor_half = [](Wide x) { return x >= 0 ? x / 2 : -((-x + 1) / 2); };
    Wide lo = 0, hi = std::max(r, s);
    auto narrow = [&](std::int64_t n, std::int64_t k, std::int64_t out) {
        lo = std::max(lo, -floor_half(-(Wide(out - 1) * stride + k - n)));
        hi = std::min(hi, floor_half(Wide(out) * stride - 1 + k - n));
    };
    narrow(h, r, p);
    narrow(w, s, q);
    if (lo > hi) return std::nullopt;
    return static_cast<std::int64_t>(lo);
}

ConstantFacts constant_node_facts(const Node& n) {
    ConstantFacts c;
    if (n.value) {
        if (fully_known(n.value->dims)) c.shape = n.value->dims;
        c.ints = n.value->ints;
    } else if (auto it = n.attrs.find("value_ints"); it != n.attrs.end()) {
        c.ints = it->second.ints;
        c.shape = Shape{static_cast<std::int64_t>(it->second.ints.size())};
    } else if (auto iv = n.attrs.find("value_int"); iv != n.attrs.end() && iv->second.i) {
        c.ints = std::vector<std::int64_t>{*iv->second.i};
        c.shape = Shape{};
    }
    return c;
}

bool swaps_last_two(const Node& n, const std::vector<Shape>& in_shapes) {
    if (n.op_type != "Transpose" || in_shapes.size() != 1 || in_shapes[0].size() != 3) return false;
    auto it = n.attrs.find("perm");
    return it != n.attrs.end() && it->second.ints == std::vector<std::int64_t>{0, 2, 1};
}

std::optional<std::pair<std::string, std::string>> bad_window_attribute(const Node& n) {
    for (const char* name : {"strides", "dilations", "kernel_shape"}) {
        auto it = n.attrs.find(name);
        if (it == n.attrs.end()) continue;
        for (std::int64_t v : it->second.ints)
            if (v < 1) return std::make_pair(std::string(name) + " of at least 1", std::to_string(v));
    }
    if (auto it = n.attrs.find("group"); it != n.attrs.end() && it->second.i && *it->second.i < 1)
        return std::make_pair(std::string("group of at least 1"), std::to_string(*it->second.i));
    return std::nullopt;
}

bool is_shape_keeping(const std::string& op) {
    static const std::set<std::string> ops = {"Relu",
                                              "LeakyRelu",
                                              "PRelu",
                                              "Sigmoid",
                                              "Tanh",
                                              "Gelu",
                                              "Erf",
                                              "Exp",
                                              "Log",
                                              "Sqrt",
                                              "Reciprocal",
                                              "Neg",
                                              "Abs",
                                              "Clip",
                                              "HardSigmoid",
                                              "HardSwish",
                                              "Softplus",
                                              "Softsign",
                                              "Elu",
                                              "Selu",
                                              "Celu",
                                              "Mish",
                                              "Identity",
                                              "Dropout",
                                              "Cast",
                                              "Softmax",
                                              "LogSoftmax",
                                              "LayerNormalization",
                                              "BatchNormalization",
                                              "InstanceNormalization",
                                              "GroupNormalization",
                                              "LpNormalization",
                                              "Not",
                                              "Floor",
                                              "Ceil",
                                              "Round",
                                              "Sign",
                                              "Sin",
                                              "Cos",
                                              "QuantizeLinear",
                                              "DequantizeLinear",
                                              "IsNaN",
                                              "IsInf",
                                              "CumSum",
                                              "Hardmax",
                                              "LRN",
                                              "MeanVarianceNormalization",
                                              "Trilu"};
    return ops.count(op) > 0;
}

std::int64_t conv_out(const Node& node, std::int64_t in, std::int64_t kernel, std::size_t axis, std::size_t spatial_rank) {
    const auto* strides = attr_ints(node, "strides");
    const auto* pads = attr_ints(node, "pads");
    const auto* dil = attr_ints(node, "dilations");
    // In 128 bits: strides, pads, dilations and pool kernels are the file's integers, unbounded.
    using Wide = __int128;
    const std::int64_t s = strides && axis < strides->size() ? (*strides)[axis] : 1;
    const std::int64_t d = dil && axis < dil->size() ? (*dil)[axis] : 1;
    const Wide eff = Wide(kernel - 1) * d + 1;
    const std::string auto_pad = attr_s(node, "auto_pad");
    if (s < 1) return -1;
    Wide out;
    if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
        out = (Wide(in) + s - 1) / s;
    } else {
        Wide total = Wide(in) - eff;
        if (auto_pad != "VALID" && pads && pads->size() == 2 * spatial_rank)
            total += Wide((*pads)[axis]) + (*pads)[axis + spatial_rank];
        if (total < 0) return -1;
        out = attr_i(node, "ceil_mode", 0) ? (total + s - 1) / s + 1 : total / s + 1;
    }
    return out > kMaxTensorDim ? -1 : static_cast<std::int64_t>(out);
}

namespace {

using ShapeRule = std::optional<Shape> (*)(const Node& n, const std::vector<InputFacts>& in, const Shape& x);

std::optional<Shape> broadcast_rule(const Node&, const std::vector<InputFacts>& in, const Shape&) { return broadcast(in); }

std::optional<Shape> global_pool(const Node&, const std::vector<InputFacts>&, const Shape& x) {
    Shape out = x;
    for (std::size_t i = 2; i < out.size(); ++i) out[i] = 1;
    return out;
}

std::optional<Shape> window_pool(const Node& n, const std::vector<InputFacts>&, const Shape& x) {
    const auto* k = attr_ints(n, "kernel_shape");
    if (!k || x.size() != k->size() + 2) return std::nullopt;
    Shape out = {x[0], x[1]};
    for (std::size_t i = 0; i < k->size(); ++i) {
        const std::int64_t o = conv_out(n, x[i + 2], (*k)[i], i, k->size());
        if (o < 1) return std::nullopt;
        out.push_back(o);
    }
    return out;
}

std::optional<Shape> flatten(const Node& n, const std::vector<InputFacts>&, const Shape& x) {
    const std::int64_t axis = attr_i(n, "axis", 1);
    const std::int64_t a = axis < 0 ? axis + static_cast<std::int64_t>(x.size()) : axis;
    if (a < 0 || a > static_cast<std::int64_t>(x.size())) return std::nullopt;
    return Shape{product(x, 0, static_cast<std::size_t>(a)), product(x, static_cast<std::size_t>(a), x.size())};
}

std::optional<Shape> reshape_rule(const Node&, const std::vector<InputFacts>& in, const Shape& x) {
    if (in.size() < 2 || !in[1].ints) return std::nullopt;
    return reshape(x, *in[1].ints);
}

std::optional<Shape> transpose(const Node& n, const std::vector<InputFacts>&, const Shape& x) {
    Shape out;
    const auto* perm = attr_ints(n, "perm");
    for (std::size_t i = 0; i < x.size(); ++i) {
        const std::int64_t src = perm ? (i < perm->size() ? (*perm)[i] : -1) : static_cast<std::int64_t>(x.size() - 1 - i);
        if (src < 0 || src >= static_cast<std::int64_t>(x.size())) return std::nullopt;
        out.push_back(x[static_cast<std::size_t>(src)]);
    }
    return out;
}

std::optional<Shape> concat(const Node& n, const std::vector<InputFacts>& in, const Shape& x) {
    const std::int64_t axis = axis_of(attr_i(n, "axis", 0), x.size());
    if (axis < 0) return std::nullopt;
    Shape out = x;
    out[static_cast<std::size_t>(axis)] = 0;
    for (const auto& f : in) {
        if (!f.shape || f.shape->size() != x.size()) return std::nullopt;
        out[static_cast<std::size_t>(axis)] += (*f.shape)[static_cast<std::size_t>(axis)];
    }
    return out;
}

std::optional<Shape> squeeze(const Node& n, const std::vector<InputFacts>& in, const Shape& x) {
    auto axes = axes_of(n, in);
    Shape out;
    for (std::size_t i = 0; i < x.size(); ++i) {
        bool drop = false;
        if (axes) {
            for (std::int64_t a : *axes) drop |= axis_of(a, x.size()) == static_cast<std::int64_t>(i);
        } else {
            drop = x[i] == 1;
        }
        if (!drop) out.push_back(x[i]);
    }
    return out;
}

std::optional<Shape> unsqueeze(const Node& n, const std::vector<InputFacts>& in, const Shape& x) {
    auto axes = axes_of(n, in);
    if (!axes) return std::nullopt;
    const std::size_t rank = x.size() + axes->size();
    std::vector<bool> inserted(rank, false);
    for (std::int64_t a : *axes) {
        const std::int64_t ax = axis_of(a, rank);
        if (ax < 0) return std::nullopt;
        inserted[static_cast<std::size_t>(ax)] = true;
    }
    Shape out;
    std::size_t j = 0;
    for (std::size_t i = 0; i < rank; ++i) out.push_back(inserted[i] ? 1 : (j < x.size() ? x[j++] : -1));
    if (j != x.size()) return std::nullopt;
    return out;
}

/// Reductions keep or drop the reduced axes; an absent or empty axes list reduces them all.
std::optional<Shape> reduced(const Shape& x, const std::optional<std::vector<std::int64_t>>& axes, bool keep) {
    Shape out;
    for (std::size_t i = 0; i < x.size(); ++i) {
        bool is_reduced = !axes || axes->empty();
        if (axes)
            for (std::int64_t a : *axes) is_reduced |= axis_of(a, x.size()) == static_cast<std::int64_t>(i);
        if (!is_reduced) out.push_back(x[i]);
        else if (keep) out.push_back(1);
    }
    return out;
}

std::optional<Shape> reduce(const Node& n, const std::vector<InputFacts>& in, const Shape& x) {
    return reduced(x, axes_of(n, in), attr_i(n, "keepdims", 1) != 0);
}

std::optional<Shape> arg_reduce(const Node& n, const std::vector<InputFacts>&, const Shape& x) {
    return reduced(x, std::vector<std::int64_t>{attr_i(n, "axis", 0)}, attr_i(n, "keepdims", 1) != 0);
}

std::optional<Shape> gather(const Node& n, const std::vector<InputFacts>& in, const Shape& x) {
    if (in.size() < 2 || !in[1].shape) return std::nullopt;
    const std::int64_t axis = axis_of(attr_i(n, "axis", 0), x.size());
    if (axis < 0) return std::nullopt;
    Shape out(x.begin(), x.begin() + axis);
    out.insert(out.end(), in[1].shape->begin(), in[1].shape->end());
    out.insert(out.end(), x.begin() + axis + 1, x.end());
    return out;
}

// Slice: starts/ends/axes/steps from constant inputs (opset 10+) or attributes (opset 1), with
// ONNX's clamping of out-of-range and negative indices.
std::optional<Shape> slice(const Node& n, const std::vector<InputFacts>& in, const Shape& x) {
    auto arg = [&](std::size_t input, const char* attr) -> std::optional<std::vector<std::int64_t>> {
        if (const auto* a = attr_ints(n, attr)) return *a;
        if (input < in.size()) return in[input].ints;
        return std::nullopt;
    };
    const auto starts = arg(1, "starts"), ends = arg(2, "ends");
    if (!starts || !ends || starts->size() != ends->size()) return std::nullopt;
    std::vector<std::int64_t> axes(starts->size()), steps(starts->size(), 1);
    for (std::size_t i = 0; i < axes.size(); ++i) axes[i] = static_cast<std::int64_t>(i);
    const bool axes_given = attr_ints(n, "axes") || (in.size() > 3 && in[3].shape);
    if (axes_given) {
        const auto a = arg(3, "axes");
        if (!a || a->size() != starts->size()) return std::nullopt;
        axes = *a;
    }
    if (in.size() > 4 && in[4].shape) {
        if (!in[4].ints || in[4].ints->size() != starts->size()) return std::nullopt;
        steps = *in[4].ints;
    }
    Shape out = x;
    for (std::size_t i = 0; i < axes.size(); ++i) {
        const std::int64_t ax = axis_of(axes[i], x.size());
        if (ax < 0 || steps[i] == 0) return std::nullopt;
        const std::int64_t dim = x[static_cast<std::size_t>(ax)], step = steps[i];
        std::int64_t b = (*starts)[i], e = (*ends)[i];
        if (b < 0) b += dim;
        if (e < 0) e += dim;
        std::int64_t len;
        // In 128 bits: a step may be any 64-bit integer.
        using Wide = __int128;
        if (dim == 0) {
            len = 0;
        } else if (step > 0) {
            b = std::clamp<std::int64_t>(b, 0, dim);
            e = std::clamp<std::int64_t>(e, 0, dim);
            len = e > b ? static_cast<std::int64_t>((Wide(e) - b + step - 1) / step) : 0;
        } else {
            b = std::clamp<std::int64_t>(b, 0, dim - 1);
            e = std::clamp<std::int64_t>(e, -1, dim - 1);
            len = b > e ? static_cast<std::int64_t>((Wide(b) - e - step - 1) / -Wide(step)) : 0;
        }
        out[static_cast<std::size_t>(ax)] = len;
    }
    return out;
}

std::optional<Shape> split_first(const Node& n, const std::vector<InputFacts>& in, const Shape&) {
    auto all = split_shapes(n, in);
    if (all.empty()) return std::nullopt;
    return all[0];
}

// Expand broadcasts the input against a target shape given as integers.
std::optional<Shape> expand(const Node&, const std::vector<InputFacts>& in, const Shape& x) {
    if (in.size() < 2 || !in[1].ints) return std::nullopt;
    const auto& target = *in[1].ints;
    if (std::any_of(target.begin(), target.end(), [](std::int64_t d) { return d < 0; })) return std::nullopt;
    std::vector<InputFacts> both(2);
    both[0].shape = x;
    both[1].shape = Shape(target.begin(), target.end());
    return broadcast(both);
}

std::optional<Shape> shape_of(const Node&, const std::vector<InputFacts>&, const Shape& x) {
    return Shape{static_cast<std::int64_t>(x.size())};
}

/// The shape rule of each ONNX operator the importer propagates shapes through.
const std::map<std::string, ShapeRule>& shape_rules() {
    static const std::map<std::string, ShapeRule> rules = [] {
        std::map<std::string, ShapeRule> r;
        for (const char* op : {"Add", "Sub", "Mul", "Div", "Pow", "Max", "Min", "Sum", "Mean", "Equal", "Less", "Greater",
                               "Where", "And", "Or", "Xor", "Mod", "LessOrEqual", "GreaterOrEqual"})
            r[op] = broadcast_rule;
        for (const char* op : {"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"}) r[op] = global_pool;
        for (const char* op : {"MaxPool", "AveragePool", "LpPool"}) r[op] = window_pool;
        for (const char* op : {"ReduceMax", "ReduceMin", "ReduceMean", "ReduceSum", "ReduceProd", "ReduceL1", "ReduceL2",
                               "ReduceLogSum", "ReduceLogSumExp", "ReduceSumSquare"})
            r[op] = reduce;
        r["ArgMax"] = r["ArgMin"] = arg_reduce;
        r["Flatten"] = flatten;
        r["Reshape"] = reshape_rule;
        r["Transpose"] = transpose;
        r["Concat"] = concat;
        r["Squeeze"] = squeeze;
        r["Unsqueeze"] = unsqueeze;
        r["Gather"] = gather;
        r["Shape"] = shape_of;
        r["Slice"] = slice;
        r["Split"] = split_first;
        r["Expand"] = expand;
        return r;
    }();
    return rules;
}

}  // namespace

std::optional<Shape> infer_shape(const Node& n, const std::vector<InputFacts>& in) {
    if (in.empty() || !in[0].shape) return std::nullopt;
    const Shape& x = *in[0].shape;
    if (is_shape_keeping(n.op_type)) return x;
    const auto& rules = shape_rules();
    const auto rule = rules.find(n.op_type);
    return rule == rules.end() ? std::nullopt : rule->second(n, in, x);
}

std::vector<Shape> split_shapes(const Node& n, const std::vector<InputFacts>& in) {
    if (in.empty() || !in[0].shape || n.outputs.empty()) return {};
    const Shape& x = *in[0].shape;
    const std::int64_t axis = axis_of(attr_i(n, "axis", 0), x.size());
    if (axis < 0) return {};
    const std::int64_t dim = x[static_cast<std::size_t>(axis)];
    std::vector<std::int64_t> sizes;
    if (const auto* a = attr_ints(n, "split")) {
        sizes = *a;
    } else if (in.size() > 1 && in[1].shape) {
        if (!in[1].ints) return {};
        sizes = *in[1].ints;
    } else {
        // Equal parts; with num_outputs (opset 18) the last one may be smaller.
        const auto parts = static_cast<std::int64_t>(n.outputs.size());
        const std::int64_t each = (dim + parts - 1) / parts;
        for (std::int64_t i = 0; i < parts; ++i) sizes.push_back(std::max<std::int64_t>(0, std::min(each, dim - i * each)));
    }
    std::int64_t total = 0;
    for (std::int64_t v : sizes) {
        if (v < 0 || v > dim) return {};  // also keeps the sum from overflowing
        total += v;
    }
    if (sizes.size() != n.outputs.size() || total != dim) return {};
    std::vector<Shape> out;
    for (std::int64_t v : sizes) {
        Shape s = x;
        s[static_cast<std::size_t>(axis)] = v;
        out.push_back(s);
    }
    return out;
}

std::optional<std::vector<std::int64_t>> fold_ints(const Node& n, const std::vector<InputFacts>& in) {
    const std::string& op = n.op_type;
    if (op == "Shape") {
        if (in.empty() || !in[0].shape) return std::nullopt;
        return *in[0].shape;  // start/end attributes (opset 15) are rare in exports; not applied
    }
    if (in.empty() || !in[0].ints) return std::nullopt;
    const auto& v = *in[0].ints;
    if (op == "Identity" || op == "Cast" || op == "Unsqueeze" || op == "Squeeze") return v;
    if (op == "Concat") {
        std::vector<std::int64_t> out;
        for (const auto& f : in) {
            if (!f.ints) return std::nullopt;
            out.insert(out.end(), f.ints->begin(), f.ints->end());
        }
        return out;
    }
    if (op == "Gather") {
        if (in.size() < 2 || !in[1].ints || attr_i(n, "axis", 0) != 0) return std::nullopt;
        std::vector<std::int64_t> out;
        for (std::int64_t i : *in[1].ints) {
            const std::int64_t j = i < 0 ? i + static_cast<std::int64_t>(v.size()) : i;
            if (j < 0 || j >= static_cast<std::int64_t>(v.size())) return std::nullopt;
            out.push_back(v[static_cast<std::size_t>(j)]);
        }
        return out;
    }
    if (op == "Slice") {
        if (in.size() < 3 || !in[1].ints || !in[2].ints || in[1].ints->size() != 1 || in[2].ints->size() != 1)
            return std::nullopt;
        const auto size = static_cast<std::int64_t>(v.size());
        auto clamp = [&](std::int64_t i) { return std::clamp<std::int64_t>(i < 0 ? i + size : i, 0, size); };
        const std::int64_t b = clamp((*in[1].ints)[0]), e = clamp((*in[2].ints)[0]);
        if (in.size() > 4 && in[4].ints && (in[4].ints->size() != 1 || (*in[4].ints)[0] != 1)) return std::nullopt;
        return std::vector<std::int64_t>(v.begin() + b, v.begin() + std::max(b, e));
    }
    return std::nullopt;
}

}  // namespace mcmsim::onnx
