// ONNX shape inference over a payload-free copy of the model (see onnx_inference.h).
// The copy is made at the wire level with the importer's own reader: ModelProto field 7
// (graph) is rebuilt with GraphProto field 5 (initializer) stripped of its data fields
// (TensorProto 4 float_data, 5 int32_data, 6 string_data, 7 int64_data, 9 raw_data,
// 10 double_data, 11 uint64_data) unless it is a small integer tensor; everything else is
// copied byte for byte. Only that copy is handed to protobuf.
#include "mapper/workload/import/onnx_inference.h"

#include "mapper/workload/import/protobuf_wire.h"

#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <map>
#include <set>

namespace mcmsim::onnx {

namespace {

using pb::Field;
using pb::Reader;

// Integer tensors up to this many payload bytes keep their data (shape inference reads
// Reshape / Slice / Unsqueeze targets from them); everything else loses it.
constexpr std::size_t kKeptIntBytes = 4096;

void put_varint(std::string& out, std::uint64_t v) {
    while (v >= 0x80) {
        out += static_cast<char>((v & 0x7f) | 0x80);
        v >>= 7;
    }
    out += static_cast<char>(v);
}

void put_bytes(std::string& out, std::uint32_t number, const std::uint8_t* data, std::size_t size) {
    put_varint(out, static_cast<std::uint64_t>(number) << 3 | pb::kBytes);
    put_varint(out, size);
    out.append(reinterpret_cast<const char*>(data), size);
}

void put_field(std::string& out, const Field& f) {
    if (f.wire == pb::kBytes) return put_bytes(out, f.number, f.data, f.size);
    put_varint(out, static_cast<std::uint64_t>(f.number) << 3 | static_cast<unsigned>(f.wire));
    if (f.wire == pb::kVarint) return put_varint(out, f.value);
    const int n = f.wire == pb::kFixed64 ? 8 : 4;
    for (int i = 0; i < n; ++i) out += static_cast<char>((f.value >> (8 * i)) & 0xff);
}

std::string strip_tensor(const Field& t, const std::string& file) {
    static const std::set<std::uint32_t> payload = {4, 5, 6, 7, 9, 10, 11};
    int data_type = 0;
    std::size_t payload_bytes = 0;
    {
        Reader r(t, file, "TensorProto");
        Field x;
        while (r.next(x)) {
            if (x.number == 2 && x.wire == pb::kVarint) data_type = static_cast<int>(x.value);
            if (payload.count(x.number)) payload_bytes += x.wire == pb::kBytes ? x.size : 8;
        }
    }
    const bool keep = (data_type == 6 || data_type == 7) && payload_bytes <= kKeptIntBytes;
    std::string out;
    Reader r(t, file, "TensorProto");
    Field x;
    while (r.next(x))
        if (keep || !payload.count(x.number)) put_field(out, x);
    return out;
}

std::string strip_graph(const Field& g, const std::string& file) {
    std::string out;
    Reader r(g, file, "GraphProto");
    Field x;
    while (r.next(x)) {
        if (x.number == 5 && x.wire == pb::kBytes) {
            const std::string t = strip_tensor(x, file);
            put_bytes(out, 5, reinterpret_cast<const std::uint8_t*>(t.data()), t.size());
        } else {
            put_field(out, x);
        }
    }
    return out;
}

Shape to_shape(const ::onnx::ValueInfoProto& vi, bool* has_shape, const std::set<std::string>& batch_names, std::int64_t batch) {
    Shape s;
    *has_shape = vi.type().has_tensor_type() && vi.type().tensor_type().has_shape();
    if (!*has_shape) return s;
    for (const auto& d : vi.type().tensor_type().shape().dim())
        s.push_back(d.has_dim_value() && d.dim_value() >= 0                 ? d.dim_value()
                    : d.has_dim_param() && batch_names.count(d.dim_param()) ? batch
                                                                            : -1);
    return s;
}

// libonnx's inference functions read an input's type without checking that there is one
// (Shape-15 does): a value nothing typed — the output of a custom-domain op, a name no node
// writes, a value_info without a type — crashed the process. Every value the graph names gets a
// tensor type, of undefined element type where it had none; inference fills it in or leaves it
// shapeless. `typed`: the names an enclosing graph already typed (a subgraph sees them).
void type_every_value(::onnx::GraphProto& g, std::set<std::string> typed) {
    for (auto* list : {g.mutable_input(), g.mutable_output(), g.mutable_value_info()})
        for (auto& vi : *list) {
            if (!vi.has_type()) vi.mutable_type()->mutable_tensor_type();
            typed.insert(vi.name());
        }
    for (const auto& t : g.initializer()) typed.insert(t.name());
    for (auto& node : *g.mutable_node()) {
        for (const auto* names : {&node.input(), &node.output()})
            for (const std::string& name : *names)
                if (!name.empty() && typed.insert(name).second) {
                    auto* vi = g.add_value_info();
                    vi->set_name(name);
                    vi->mutable_type()->mutable_tensor_type();
                }
        for (auto& a : *node.mutable_attribute()) {
            if (a.has_g()) type_every_value(*a.mutable_g(), typed);
            for (auto& sub : *a.mutable_graphs()) type_every_value(sub, typed);
        }
    }
}

// libonnx's convolution inference takes the kernel from the weight's dims when the node has
// no kernel_shape, then reads as many of them as the input has spatial axes: a weight of
// lower rank than its input read past the end and crashed the process. Where the weight's
// dims are known (an initializer or a shaped value_info), the kernel is written into the node
// that inference sees, so a rank mismatch is a failed node instead.
void pin_convolution_kernels(::onnx::GraphProto& g) {
    std::map<std::string, std::vector<std::int64_t>> dims;
    for (const auto& t : g.initializer()) dims[t.name()].assign(t.dims().begin(), t.dims().end());
    for (const auto* list : {&g.input(), &g.value_info()})
        for (const auto& vi : *list) {
            if (!vi.type().has_tensor_type() || !vi.type().tensor_type().has_shape() || dims.count(vi.name())) continue;
            std::vector<std::int64_t> d;
            bool known = true;
            for (const auto& x : vi.type().tensor_type().shape().dim()) {
                known = known && x.has_dim_value();
                d.push_back(x.dim_value());
            }
            if (known) dims[vi.name()] = d;
        }
    for (auto& node : *g.mutable_node()) {
        const std::string& op = node.op_type();
        const int w = op == "Conv" || op == "ConvTranspose" || op == "ConvInteger" ? 1 : op == "QLinearConv" ? 3 : -1;
        if (w < 0 || !node.domain().empty() || node.input_size() <= w) continue;
        bool has_kernel = false;
        for (const auto& a : node.attribute()) has_kernel = has_kernel || a.name() == "kernel_shape";
        auto it = dims.find(node.input(w));
        if (has_kernel || it == dims.end()) continue;
        auto* a = node.add_attribute();
        a->set_name("kernel_shape");
        a->set_type(::onnx::AttributeProto::INTS);
        for (std::size_t i = 2; i < it->second.size(); ++i) a->add_ints(it->second[i]);
    }
    for (auto& node : *g.mutable_node())
        for (auto& a : *node.mutable_attribute()) {
            if (a.has_g()) pin_convolution_kernels(*a.mutable_g());
            for (auto& sub : *a.mutable_graphs()) pin_convolution_kernels(sub);
        }
}

}  // namespace

InferredShapes infer_model_shapes(const std::uint8_t* data, std::size_t size, std::int64_t batch, const std::string& file) {
    InferredShapes result;
    std::string stripped;
    {
        Reader r(data, size, 0, file, "ModelProto");
        Field x;
        while (r.next(x)) {
            if (x.number == 7 && x.wire == pb::kBytes) {
                const std::string g = strip_graph(x, file);
                put_bytes(stripped, 7, reinterpret_cast<const std::uint8_t*>(g.data()), g.size());
            } else {
                put_field(stripped, x);
            }
        }
    }
    ::onnx::ModelProto model;
    if (!model.ParseFromString(stripped)) {
        result.error = "protobuf could not parse the model";
        return result;
    }
    std::string().swap(stripped);
    auto* graph = model.mutable_graph();
    type_every_value(*graph, {});
    pin_convolution_kernels(*graph);
    // The names of a symbolic batch (dim_param of dimension 0 of the graph inputs) stand for
    // `batch` wherever they appear, since layouts such as attention's [seq, batch, d] move the
    // batch out of dimension 0 and inference cannot see through a name it does not know.
    std::set<std::string> batch_names;
    if (batch > 0) {
        std::set<std::string> initializers;
        for (const auto& t : graph->initializer()) initializers.insert(t.name());
        for (auto& in : *graph->mutable_input()) {
            if (initializers.count(in.name()) || !in.type().has_tensor_type() || !in.type().tensor_type().has_shape() ||
                in.type().tensor_type().shape().dim_size() == 0)
                continue;
            auto* d0 = in.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(0);
            if (d0->has_dim_param() && !d0->dim_param().empty()) batch_names.insert(d0->dim_param());
            d0->clear_dim_param();
            d0->set_dim_value(batch);
        }
        auto bind = [&](::onnx::ValueInfoProto& vi) {
            if (!vi.type().has_tensor_type() || !vi.type().tensor_type().has_shape()) return;
            for (auto& d : *vi.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim())
                if (d.has_dim_param() && batch_names.count(d.dim_param())) {
                    d.clear_dim_param();
                    d.set_dim_value(batch);
                }
        };
        // Only the inputs: a value_info or output bound wrongly (a name reused for another
        // axis) would conflict with what inference derives and fail it as a whole; their
        // remaining batch names are bound after inference instead.
        for (auto& vi : *graph->mutable_input()) bind(vi);
    }
    try {
        ::onnx::ShapeInferenceOptions options;
        options.check_type = false;
        options.error_mode = 0;                  // best effort: nodes that fail inference are skipped
        options.enable_data_propagation = true;  // Shape -> Gather -> Concat -> Reshape chains
        ::onnx::shape_inference::InferShapes(model, ::onnx::OpSchemaRegistry::Instance(), options);
    } catch (const std::exception& e) {
        result.error = e.what();
        return result;
    }
    auto add = [&](const ::onnx::ValueInfoProto& vi) {
        bool has = false;
        Shape s = to_shape(vi, &has, batch_names, batch);
        if (has && !vi.name().empty()) result.shapes[vi.name()] = std::move(s);
    };
    for (const auto& vi : graph->input()) add(vi);
    for (const auto& vi : graph->output()) add(vi);
    for (const auto& vi : graph->value_info()) add(vi);
    return result;
}

}  // namespace mcmsim::onnx
