// ONNX graph -> Workload (see onnx_importer.h). The file is memory-mapped and parsed in place
// (onnx_proto.cpp); weight payloads are never touched, so even models with hundreds of MB of
// weights need little more memory than their graph structure. Tensor shapes come from ONNX's
// shape inference (onnx_inference.cpp, run on a payload-free copy of the model), with the
// importer's own propagation (onnx_shapes.cpp) where inference gives none.
#include "mapper/workload/import/onnx_importer.h"

#include "hw/common/input_error.h"
#include "mapper/workload/import/layer_fusion.h"
#include "mapper/workload/import/mapped_file.h"
#include "mapper/workload/import/onnx_inference.h"
#include "mapper/workload/import/onnx_ops.h"
#include "mapper/workload/import/onnx_proto.h"
#include "mapper/workload/import/onnx_shapes.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace mcmsim {

namespace {

using onnx::Node;
using onnx::Shape;

// What the importer knows about one tensor name.
struct Tensor {
    std::optional<Shape> shape;                     ///< fully known dims only
    int producer = -1;                              ///< the layer writing it; -1: a graph input or a constant
    bool constant = false;                          ///< initializer, Constant node, or computed from constants only
    std::optional<std::vector<std::int64_t>> ints;  ///< small integer constant values
    /// Features in the last dimension ([N, tokens, features], as Gemm and MatMul write them)
    /// rather than in dimension 1 ([N, C, H, W] or [N, C, L], as Conv writes them).
    bool features_last = false;
};

using onnx::fully_known;
using onnx::product;
using onnx::shape_text;

class Importer {
public:
    Importer(const std::string& file, const onnx::Graph& g, const OnnxImportOptions& opt) : file_(file), g_(g), opt_(opt) {}

    Workload run(const std::uint8_t* data, std::size_t size) {
        wl_.name = g_.name.empty() ? std::filesystem::path(file_).stem().string() : g_.name;
        choose_batch();
        wl_.batch = batch_;
        run_inference(data, size);
        for (const auto& [name, c] : g_.initializers) {
            Tensor& t = tensors_[name];
            t.constant = true;
            if (fully_known(c.dims)) t.shape = c.dims;
            t.ints = c.ints;
        }
        for (const auto& vi : g_.inputs) {
            if (g_.initializers.count(vi.name)) continue;  // IR < 4 lists initializers as inputs
            Tensor& t = tensors_[vi.name];
            if (vi.shape) {
                Shape s = *bound_shape(vi);
                if (!s.empty()) s[0] = batch_;  // dimension 0 of a graph input is the batch
                if (fully_known(s)) t.shape = s;
            }
        }
        for (const auto& vi : g_.value_info) value_info_[vi.name] = bound_shape(vi);
        for (const auto& vi : g_.outputs) value_info_.emplace(vi.name, bound_shape(vi));

        for (std::size_t i = 0; i < g_.nodes.size(); ++i) import_node(i, g_.nodes[i]);
        if (wl_.layers.empty())
            throw InputError(file_, "", "an ONNX graph with at least one operator on activations",
                             std::to_string(g_.nodes.size()) + " nodes, none on activations");
        if (opt_.fuse_layers) fuse();
        add_notes();
        validate_workload(wl_, file_);
        return std::move(wl_);
    }

private:
    // ONNX shape inference with the chosen batch in dimension 0 of the graph inputs. When that
    // batch overrides a fixed model batch, Reshape targets baked with the model's batch make
    // inferred shapes unreliable: then they only fill in where propagation knows nothing.
    // Checked before ONNX's own shape inference runs: a stride of 0 would stop the process
    // there, not raise an error.
    void check_window_attributes() const {
        for (std::size_t i = 0; i < g_.nodes.size(); ++i)
            if (auto bad = onnx::bad_window_attribute(g_.nodes[i])) fail(i, g_.nodes[i], bad->first, bad->second);
    }

    void run_inference(const std::uint8_t* data, std::size_t size) {
        check_window_attributes();
        onnx::InferredShapes inferred = onnx::infer_model_shapes(data, size, batch_, file_);
        if (!inferred.error.empty())
            notes_.push_back("ONNX shape inference failed (" + inferred.error + "); shapes from propagation only");
        inferred_ = std::move(inferred.shapes);
        inference_first_ = !(model_batch_ > 0 && model_batch_ != batch_);
    }

    std::optional<Shape> inferred_shape(const std::string& name) const {
        auto it = inferred_.find(name);
        if (it == inferred_.end()) return std::nullopt;
        Shape s = it->second;
        if (!s.empty() && s[0] < 0) s[0] = batch_;
        if (!fully_known(s)) return std::nullopt;
        return s;
    }

    void choose_batch() {
        bool first = true;
        for (const auto& vi : g_.inputs) {
            if (g_.initializers.count(vi.name) || !vi.shape || vi.shape->empty()) continue;
            if (first && (*vi.shape)[0] > 0) model_batch_ = (*vi.shape)[0];
            first = false;
            if (!vi.dim_params.empty() && !vi.dim_params[0].empty()) batch_names_.insert(vi.dim_params[0]);
        }
        batch_ = opt_.batch > 0 ? opt_.batch : model_batch_ > 0 ? model_batch_ : 1;
        if (batch_ > kMaxBatch)
            throw InputError(file_, "graph input 0, dimension 0", "a batch in [1, " + std::to_string(kMaxBatch) + "]",
                             std::to_string(batch_));
    }

    // A value_info shape with the symbolic batch bound wherever its name appears: exporters
    // write [seq, batch, d] for attention layouts, so dimension 0 alone would leave it unknown.
    std::optional<Shape> bound_shape(const onnx::ValueInfo& vi) const {
        if (!vi.shape) return std::nullopt;
        Shape s = *vi.shape;
        for (std::size_t i = 0; i < s.size() && i < vi.dim_params.size(); ++i)
            if (s[i] < 0 && batch_names_.count(vi.dim_params[i])) s[i] = batch_;
        return s;
    }

    std::string where(std::size_t index, const Node& n) const {
        return "node " + std::to_string(index) + " (" + n.op_type + (n.name.empty() ? "" : " \"" + n.name + "\"") + ")";
    }

    [[noreturn]] void fail(std::size_t index, const Node& n, const std::string& expected, const std::string& found) const {
        throw InputError(file_, where(index, n), expected, found);
    }

    // A shape the importer computes with is within onnx::within_limits; a larger one is bad
    // input, named after its tensor.
    void check_limits(const std::string& tensor, const Shape& s) const {
        if (!onnx::within_limits(s))
            throw InputError(file_, "tensor \"" + tensor + "\"",
                             "a shape of dims up to 2^30 and up to 2^50 elements (non-zero dims)", shape_text(s));
    }

    // The known shape of a tensor (see known_shape), within the importer's limits.
    std::optional<Shape> shape_of(const std::string& name) {
        std::optional<Shape> s = known_shape(name);
        if (s) check_limits(name, *s);
        return s;
    }

    // The known shape of a tensor: ONNX shape inference, else propagated, else the file's
    // value_info (symbolic dim 0 = the batch). Constants keep their own dims.
    std::optional<Shape> known_shape(const std::string& name) {
        auto it = tensors_.find(name);
        const bool constant = it != tensors_.end() && it->second.constant;
        if (inference_first_ && !constant)
            if (auto s = inferred_shape(name)) return s;
        if (it != tensors_.end() && it->second.shape) return it->second.shape;
        if (!inference_first_ && !constant)
            if (auto s = inferred_shape(name)) return s;
        auto vi = value_info_.find(name);
        if (vi != value_info_.end() && vi->second) {
            Shape s = *vi->second;
            if (!s.empty() && s[0] < 0) s[0] = batch_;
            if (fully_known(s)) return s;
        }
        return std::nullopt;
    }

    bool is_constant(const std::string& name) const {
        auto it = tensors_.find(name);
        return it != tensors_.end() && it->second.constant;
    }

    int producer(const std::string& name) const {
        auto it = tensors_.find(name);
        return it == tensors_.end() ? -1 : it->second.producer;
    }

    Shape need_shape(std::size_t index, const Node& n, std::size_t input) {
        if (input >= n.inputs.size() || n.inputs[input].empty())
            fail(index, n, "input " + std::to_string(input), "too few inputs");
        auto s = shape_of(n.inputs[input]);
        if (!s)
            fail(index, n, "a known shape for input \"" + n.inputs[input] + "\" (fixed graph input dims or value_info)",
                 "an unknown shape");
        return *s;
    }

    std::string unique_name(std::size_t index, const Node& n) {
        std::string name = n.name.empty() ? n.op_type + "_" + std::to_string(index) : n.name;
        if (!names_.insert(name).second) {
            name += "_" + std::to_string(index);
            names_.insert(name);
        }
        return name;
    }

    void fuse() {
        FusionCounts counts;
        const std::size_t before = wl_.layers.size();
        wl_ = fuse_layers(wl_, bias_add_, counts);
        if (wl_.layers.size() == before) return;
        notes_.push_back(std::to_string(before) + " layers fused to " + std::to_string(wl_.layers.size()) + ": " +
                         std::to_string(counts.views) + " views read through, " + std::to_string(counts.biases) +
                         " bias adds folded into their MAC layer, " + std::to_string(counts.fused_members) +
                         " element-wise layers in " + std::to_string(counts.fused_layers) + " vector kernels");
    }

    // An Add of constants holding one value per output channel of the MAC layer it reads.
    bool is_bias_add(const Node& n, const Layer& l) {
        if (n.op_type != "Add" || l.inputs.size() != 1) return false;
        const Layer& src = wl_.layers[static_cast<std::size_t>(l.inputs[0])];
        if (!src.is_mac_layer()) return false;
        int activations = 0;
        for (const auto& in : n.inputs) {
            if (in.empty()) continue;
            if (!is_constant(in)) {
                ++activations;
                continue;
            }
            const auto shape = shape_of(in);
            if (!shape || product(*shape, 0, shape->size()) != src.k) return false;
        }
        return activations == 1;
    }

    int add_layer(Layer l, const Node& n) {
        bias_add_.push_back(l.kind == LayerKind::Vector && is_bias_add(n, l));
        l.n = batch_;
        l.bytes_per_element = opt_.bytes_per_element;
        wl_.layers.push_back(std::move(l));
        const int id = static_cast<int>(wl_.layers.size()) - 1;
        for (const auto& out : n.outputs) tensors_[out].producer = id;
        return id;
    }

    // Rows per batch item of a tensor with `leading` elements in front of the matrix dims.
    std::int64_t per_batch(std::size_t index, const Node& n, std::int64_t leading) const {
        if (leading % batch_ != 0)
            fail(index, n, "leading dimensions that are a multiple of the batch " + std::to_string(batch_),
                 std::to_string(leading));
        return leading / batch_;
    }

    std::int64_t stride_of(std::size_t index, const Node& n) const {
        auto it = n.attrs.find("strides");
        if (it == n.attrs.end() || it->second.ints.empty()) return 1;
        const auto& st = it->second.ints;
        if (std::adjacent_find(st.begin(), st.end(), std::not_equal_to<>()) != st.end())
            fail(index, n, "equal strides on every axis (mcmsim models one stride)", "strides " + shape_text(st));
        return st[0];
    }

    void import_conv(std::size_t index, const Node& n) {
        const std::size_t w_input = n.op_type == "QLinearConv" ? 3 : 1;
        Shape x = need_shape(index, n, 0);
        Shape wt = need_shape(index, n, w_input);
        if (x.size() != wt.size())
            fail(index, n, "a weight with as many axes as the input (" + std::to_string(x.size()) + ")",
                 "weight " + shape_text(wt));
        if (x.size() == 3) x.insert(x.begin() + 2, 1);  // 1-D conv: a 1×L image
        if (wt.size() == 3) wt.insert(wt.begin() + 2, 1);
        if (x.size() != 4 || wt.size() != 4)
            fail(index, n, "a 1-D or 2-D convolution", "input " + shape_text(x) + ", weight " + shape_text(wt));
        const std::int64_t groups = n.attrs.count("group") && n.attrs.at("group").i ? *n.attrs.at("group").i : 1;
        Layer l;
        l.name = unique_name(index, n);
        l.kind = LayerKind::Conv;
        l.c = x[1];
        l.h = x[2];
        l.w = x[3];
        l.k = wt[0];
        l.r = wt[2];
        l.s = wt[3];
        l.groups = groups;
        if (x[0] != batch_) fail(index, n, "batch " + std::to_string(batch_) + " in dimension 0", shape_text(x));
        if (groups < 1 || groups > x[1] || wt[1] * groups != x[1])
            fail(index, n, "weight channels × group = input channels " + std::to_string(x[1]),
                 std::to_string(wt[1]) + " × " + std::to_string(groups));
        const bool one_d = need_shape(index, n, 0).size() == 3;
        // The weight's spatial dimensions are the kernel; an attribute that says otherwise
        // makes the file's own output shapes disagree with the layer mcmsim would build.
        if (auto it = n.attrs.find("kernel_shape"); it != n.attrs.end() && !it->second.ints.empty()) {
            const Shape kernel(wt.begin() + (one_d ? 3 : 2), wt.end());
            if (it->second.ints != kernel)
                fail(index, n, "kernel_shape equal to the weight's spatial dimensions " + shape_text(kernel),
                     "kernel_shape " + shape_text(it->second.ints));
        }
        l.p = one_d ? 1 : onnx::conv_out(n, l.h, l.r, 0, 2);
        l.q = onnx::conv_out(n, l.w, l.s, one_d ? 0 : 1, one_d ? 1 : 2);
        l.stride = stride_of(index, n);
        if (one_d && l.q >= 1) {
            // mcmsim's one symmetric pad would pad the 1-wide axis too; instead the padding
            // goes into the length: w is L where that gives (w - s)/stride + 1 = q, else the
            // nearest w that does (ONNX's pads, SAME and dilation all come out that way), pad 0.
            const std::int64_t min_w = (l.q - 1) * l.stride + l.s;
            l.w = std::max(min_w, std::min(l.w, min_w + l.stride - 1));
        }
        const auto pad = one_d ? std::optional<std::int64_t>(0) : onnx::symmetric_pad(l.h, l.w, l.r, l.s, l.stride, l.p, l.q);
        if (l.p < 1 || l.q < 1 || !pad)
            fail(index, n, "a convolution geometry mcmsim can express (one stride, symmetric padding)",
                 "input " + shape_text(x) + ", weight " + shape_text(wt) + ", output " + std::to_string(l.p) + "×" +
                     std::to_string(l.q));
        l.pad = *pad;
        if (int src = producer(n.inputs[0]); src >= 0) l.inputs = {src};
        add_layer(std::move(l), n);
        Shape out = {batch_, wt[0]};
        if (!one_d) out.push_back(wl_.layers.back().p);
        out.push_back(wl_.layers.back().q);
        tensors_[n.outputs[0]].shape = out;
    }

    // A product out[..., M, N] = A[..., M, K] · B[..., K, N] with A and/or B activations.
    void add_product(std::size_t index, const Node& n, const std::string& a_name, const std::string& b_name, Shape a, Shape b,
                     Shape out) {
        const bool a_const = is_constant(a_name), b_const = is_constant(b_name);
        const std::int64_t m = a[a.size() - 2], kdim = a.back(), ncols = b.back();
        if (b[b.size() - 2] != kdim) fail(index, n, "matching inner dimensions", shape_text(a) + " · " + shape_text(b));
        Layer l;
        l.name = unique_name(index, n);
        if (b_const && !a_const && b.size() == 2) {
            // A weight matrix: a fully connected layer over all rows of A.
            l.kind = LayerKind::FullyConnected;
            l.c = kdim;
            l.k = ncols;
            l.h = l.p = per_batch(index, n, product(a, 0, a.size() - 1));
            if (int src = producer(a_name); src >= 0) l.inputs = {src};
        } else if (a_const && !b_const && a.size() == 2) {
            // Constant on the left: outᵀ = Bᵀ·Aᵀ, a fully connected layer with weights A.
            l.kind = LayerKind::FullyConnected;
            l.c = kdim;
            l.k = m;
            l.h = l.p = per_batch(index, n, product(b, 0, b.size() - 2) * ncols);
            if (int src = producer(b_name); src >= 0) l.inputs = {src};
        } else {
            l.kind = LayerKind::MatMul;
            l.h = l.p = m;
            l.c = kdim;
            l.k = ncols;
            l.heads = per_batch(index, n, product(out, 0, out.size() - 2));
            const int pa = producer(a_name), pb = producer(b_name);
            if (pa >= 0) l.inputs.push_back(pa);
            if (pb >= 0) l.inputs.push_back(pb);
            if (pa < 0 && pb >= 0) notes_.push_back(l.name + ": operand A is a graph input; its only listed producer is B's");
        }
        add_layer(std::move(l), n);
        tensors_[n.outputs[0]].shape = out;
        tensors_[n.outputs[0]].features_last = true;
    }

    void import_matmul(std::size_t index, const Node& n) {
        const std::size_t b_input = n.op_type == "QLinearMatMul" ? 3 : 1;
        Shape a = need_shape(index, n, 0), b = need_shape(index, n, b_input);
        if (a.empty() || b.empty()) fail(index, n, "tensor operands", "a scalar");
        const bool a_vec = a.size() == 1, b_vec = b.size() == 1;
        if (a_vec) a.insert(a.begin(), 1);
        if (b_vec) b.push_back(1);
        // Broadcast the batch dimensions.
        Shape lead_a(a.begin(), a.end() - 2), lead_b(b.begin(), b.end() - 2), lead;
        const std::size_t rank = std::max(lead_a.size(), lead_b.size());
        for (std::size_t i = 0; i < rank; ++i) {
            const std::int64_t da = i + lead_a.size() >= rank ? lead_a[i + lead_a.size() - rank] : 1;
            const std::int64_t db = i + lead_b.size() >= rank ? lead_b[i + lead_b.size() - rank] : 1;
            if (da != db && da != 1 && db != 1)
                fail(index, n, "broadcastable batch dimensions", shape_text(a) + " · " + shape_text(b));
            lead.push_back(std::max(da, db));
        }
        Shape out = lead;
        if (!a_vec) out.push_back(a[a.size() - 2]);
        if (!b_vec) out.push_back(b.back());
        Shape full_out = lead;
        full_out.push_back(a[a.size() - 2]);
        full_out.push_back(b.back());
        check_limits(n.outputs[0], full_out);  // broadcasting multiplies the operands' batch dims
        // A weight B shared by every batch item keeps its 2-D form for the FC test above.
        if (is_constant(n.inputs[b_input]) && lead_b.empty()) {
            Shape a_full = lead;
            a_full.push_back(a[a.size() - 2]);
            a_full.push_back(a.back());
            a = a_full;
        }
        add_product(index, n, n.inputs[0], n.inputs[b_input], a, b, full_out);
        tensors_[n.outputs[0]].shape = out;
        tensors_[n.outputs[0]].features_last = true;
    }

    void import_gemm(std::size_t index, const Node& n) {
        Shape a = need_shape(index, n, 0), b = need_shape(index, n, 1);
        if (a.size() != 2 || b.size() != 2) fail(index, n, "2-D Gemm operands", shape_text(a) + ", " + shape_text(b));
        auto flag = [&](const char* name) { return n.attrs.count(name) && n.attrs.at(name).i && *n.attrs.at(name).i; };
        if (flag("transA")) std::swap(a[0], a[1]);
        if (flag("transB")) std::swap(b[0], b[1]);
        add_product(index, n, n.inputs[0], n.inputs[1], a, b, Shape{a[0], b[1]});
    }

    // c, h, w per batch item of a tensor: [batch, c, h, w...] keeps its layout, anything else
    // is flattened into c.
    struct Chw {
        std::int64_t c = 1, h = 1, w = 1;
    };
    // The layer geometry of a tensor: c the features, h (and w) the positions, as the zoo
    // writes a transformer's [tokens, features] tensors (c = features, h = tokens) so that a
    // vector layer lines up with the linear layer it reads.
    Chw chw(const Shape& s, bool features_last) const {
        Chw r;
        if (features_last && s.size() == 3 && s[0] == batch_) {
            r.c = std::max<std::int64_t>(1, s[2]);
            r.h = std::max<std::int64_t>(1, s[1]);
        } else if (s.size() >= 2 && s[0] == batch_) {
            r.c = std::max<std::int64_t>(1, s[1]);
            r.h = std::max<std::int64_t>(1, s.size() > 2 ? s[2] : 1);
            r.w = std::max<std::int64_t>(1, product(s, 3, s.size()));
        } else {
            const std::int64_t total = product(s, 0, s.size());
            r.c = std::max<std::int64_t>(1, (total + batch_ - 1) / batch_);
        }
        return r;
    }

    void import_vector(std::size_t index, const Node& n, const std::vector<onnx::InputFacts>& facts,
                       const std::optional<Shape>& out_shape) {
        Layer l;
        l.name = unique_name(index, n);
        l.kind = LayerKind::Vector;
        l.set_op(onnx::vector_op_name(n.op_type));
        std::vector<Shape> in_shapes;
        std::optional<bool> first_features_last;
        for (std::size_t i = 0; i < n.inputs.size(); ++i) {
            const std::string& in = n.inputs[i];
            if (in.empty() || is_constant(in)) continue;
            if (!first_features_last) first_features_last = tensors_[in].features_last;
            if (int src = producer(in); src >= 0 && std::find(l.inputs.begin(), l.inputs.end(), src) == l.inputs.end())
                l.inputs.push_back(src);
            if (facts[i].shape) in_shapes.push_back(*facts[i].shape);
        }
        const bool in_features_last = first_features_last.value_or(false);
        const bool out_features_last = onnx::swaps_last_two(n, in_shapes) ? !in_features_last : in_features_last;
        const bool same = std::all_of(in_shapes.begin(), in_shapes.end(), [&](const Shape& s) { return s == in_shapes[0]; });
        if (!in_shapes.empty()) {
            Chw in;
            if (same) {
                in = chw(in_shapes[0], in_features_last);
                l.operands = static_cast<std::int64_t>(in_shapes.size());
            } else {  // e.g. Concat: one flattened tensor of all inputs
                std::int64_t total = 0;
                for (const auto& s : in_shapes) total += product(s, 0, s.size());
                in.c = std::max<std::int64_t>(1, (total + batch_ - 1) / batch_);
            }
            l.c = in.c;
            l.h = in.h;
            l.w = in.w;
        } else {
            ++unknown_shape_;
        }
        if (out_shape) {
            const Chw out = chw(*out_shape, out_features_last);
            l.k = out.c;
            l.p = out.h;
            l.q = out.w;
        } else {
            l.k = l.c;
            l.p = l.h;
            l.q = l.w;
            if (!in_shapes.empty()) ++unknown_shape_;
        }
        if (l.window_op()) make_window(index, n, l);
        add_layer(std::move(l), n);
        if (!n.outputs.empty()) tensors_[n.outputs[0]].shape = out_shape;
        for (const auto& o : n.outputs) tensors_[o].features_last = out_features_last;
    }

    // Pooling as mcmsim's window op; an irregular window (asymmetric pads, ceil_mode that no
    // symmetric pad reproduces) stays a generic "pool" op costing one operation per output.
    void make_window(std::size_t index, const Node& n, Layer& l) {
        (void)index;
        if (n.op_type.rfind("Global", 0) == 0) {
            l.r = l.h;
            l.s = l.w;
        } else if (auto it = n.attrs.find("kernel_shape"); it != n.attrs.end() && it->second.ints.size() == 2) {
            l.r = it->second.ints[0];
            l.s = it->second.ints[1];
            const auto& st = n.attrs.count("strides") ? n.attrs.at("strides").ints : std::vector<std::int64_t>{};
            l.stride = st.empty() ? 1 : st[0];
            if (!st.empty() && std::adjacent_find(st.begin(), st.end(), std::not_equal_to<>()) != st.end()) l.stride = 0;
            // The attributes are the file's integers: a window no layer dimension could hold
            // is irregular too.
            for (std::int64_t v : {l.r, l.s, l.stride})
                if (v > onnx::kMaxTensorDim) l.stride = 0;
        } else {
            l.stride = 0;
        }
        const auto pad = l.stride > 0 && l.k == l.c ? onnx::symmetric_pad(l.h, l.w, l.r, l.s, l.stride, l.p, l.q) : std::nullopt;
        if (pad) {
            l.pad = *pad;
            return;
        }
        l.set_op("pool");
        l.r = l.s = l.stride = 1;
        l.pad = 0;
        notes_.push_back(l.name +
                         ": pooling window not expressible with one stride and symmetric padding; "
                         "kept as a generic vector op");
    }

    void import_node(std::size_t index, const Node& n) {
        const std::string& op = n.op_type;
        const bool standard = n.domain.empty() || n.domain == "ai.onnx";
        if (n.outputs.empty()) return;
        if (standard && op == "Constant") {
            Tensor& t = tensors_[n.outputs[0]];
            t.constant = true;
            const onnx::ConstantFacts c = onnx::constant_node_facts(n);
            t.shape = c.shape;
            t.ints = c.ints;
            ++folded_;
            return;
        }
        if (standard && onnx::has_unmodelled_macs(op))
            fail(index, n, "an operator mcmsim can count MACs for (Conv, Gemm, MatMul and their quantised forms)",
                 "\"" + op + "\"");
        if (standard && (op == "Conv" || op == "QLinearConv" || op == "ConvInteger")) return import_conv(index, n);
        if (standard && (op == "MatMul" || op == "MatMulInteger" || op == "QLinearMatMul")) return import_matmul(index, n);
        if (standard && op == "Gemm") return import_gemm(index, n);

        std::vector<onnx::InputFacts> facts;
        bool any_activation = false;
        for (const auto& in : n.inputs) {
            onnx::InputFacts f;
            if (!in.empty()) {
                f.shape = shape_of(in);
                auto it = tensors_.find(in);
                if (it != tensors_.end()) f.ints = it->second.ints;
                any_activation |= !is_constant(in);
            }
            facts.push_back(std::move(f));
        }
        // Exporters often bake the model's batch into Reshape targets ([1, -1]); with another
        // batch, dimension 0 follows the input's batch instead.
        if (standard && op == "Reshape" && facts.size() > 1 && facts[0].shape && facts[1].ints && !facts[1].ints->empty() &&
            model_batch_ > 0 && model_batch_ != batch_ && (*facts[1].ints)[0] == model_batch_ && !facts[0].shape->empty() &&
            (*facts[0].shape)[0] == batch_) {
            (*facts[1].ints)[0] = batch_;
            ++rebatched_;
        }
        std::optional<Shape> out = inference_first_ ? inferred_shape(n.outputs[0]) : std::nullopt;
        if (!out && standard) out = onnx::infer_shape(n, facts);
        if (!out) out = shape_of(n.outputs[0]);
        // Shape and everything computed from constants only is metadata, not work on data.
        if (standard && (op == "Shape" || !any_activation)) {
            Tensor& t = tensors_[n.outputs[0]];
            t.constant = true;
            t.shape = out;
            t.ints = onnx::fold_ints(n, facts);
            for (std::size_t i = 1; i < n.outputs.size(); ++i) tensors_[n.outputs[i]].constant = true;
            ++folded_;
            return;
        }
        if (out) check_limits(n.outputs[0], *out);
        if (!standard || !onnx::understood(op)) ++not_understood_[op];
        if (standard && op == "Split") {
            // One layer writes all parts: its output is the whole input, each part its own shape.
            const auto parts = onnx::split_shapes(n, facts);
            std::vector<std::optional<Shape>> shapes;
            for (std::size_t i = 0; i < n.outputs.size(); ++i)
                shapes.push_back(i < parts.size() ? std::optional<Shape>(parts[i]) : shape_of(n.outputs[i]));
            import_vector(index, n, facts, facts[0].shape);
            for (std::size_t i = 0; i < n.outputs.size(); ++i) tensors_[n.outputs[i]].shape = shapes[i];
            return;
        }
        import_vector(index, n, facts, out);
        for (std::size_t i = 1; i < n.outputs.size(); ++i) tensors_[n.outputs[i]].shape = shape_of(n.outputs[i]);
    }

    void add_notes() {
        if (!not_understood_.empty()) {
            int total = 0;
            std::string list;
            for (const auto& [op, count] : not_understood_) {
                total += count;
                list += (list.empty() ? "" : ", ") + op + " ×" + std::to_string(count);
            }
            wl_.notes.push_back("warning: " + std::to_string(total) +
                                " operators not understood, kept as vector layers (1 operation per output element): " + list);
        }
        if (unknown_shape_ > 0)
            wl_.notes.push_back("warning: " + std::to_string(unknown_shape_) +
                                " vector-layer tensors without a known shape, counted as 1 element per batch item");
        if (rebatched_ > 0)
            wl_.notes.push_back(std::to_string(rebatched_) + " Reshape targets with the model's batch " +
                                std::to_string(model_batch_) + " in dimension 0 follow batch " + std::to_string(batch_));
        if (folded_ > 0)
            wl_.notes.push_back(std::to_string(folded_) +
                                " nodes on constants or shapes only (Constant, Shape, ...) "
                                "folded, not layers");
        for (auto& note : notes_) wl_.notes.push_back(std::move(note));
    }

    const std::string& file_;
    const onnx::Graph& g_;
    OnnxImportOptions opt_;
    Workload wl_;
    std::int64_t batch_ = 1;
    std::int64_t model_batch_ = -1;      ///< dimension 0 of the first graph input, -1 when symbolic
    std::set<std::string> batch_names_;  ///< dim_params of the graph inputs' dimension 0
    std::map<std::string, Tensor> tensors_;
    std::map<std::string, std::optional<Shape>> value_info_;
    std::map<std::string, Shape> inferred_;  ///< ONNX shape inference (dims -1 when unknown)
    bool inference_first_ = true;
    std::set<std::string> names_;
    std::map<std::string, int> not_understood_;
    std::vector<std::string> notes_;
    std::vector<bool> bias_add_;  ///< per layer: a bias Add the fusion may fold (layer_fusion.h)
    int unknown_shape_ = 0, folded_ = 0, rebatched_ = 0;
};

}  // namespace

Workload import_onnx(const std::string& path, const OnnxImportOptions& options) {
    MappedFile file(path);
    return import_onnx_bytes(file.data(), file.size(), path, options);
}

Workload import_onnx_bytes(const std::uint8_t* data, std::size_t size, const std::string& file,
                           const OnnxImportOptions& options) {
    if (options.bytes_per_element < 1)
        throw InputError(file, "", "bytes per element >= 1", std::to_string(options.bytes_per_element));
    const onnx::Graph graph = onnx::parse_model(data, size, file);
    return Importer(file, graph, options).run(data, size);
}

}  // namespace mcmsim
