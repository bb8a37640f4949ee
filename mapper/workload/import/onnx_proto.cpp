// ONNX ModelProto -> onnx::Graph over the raw protobuf bytes. Field numbers from onnx.proto3:
//   ModelProto: 1 ir_version, 7 graph, 8 opset_import
//   GraphProto: 1 node, 2 name, 5 initializer, 11 input, 12 output, 13 value_info
//   NodeProto: 1 input, 2 output, 3 name, 4 op_type, 5 attribute, 7 domain
//   AttributeProto: 1 name, 2 f, 3 i, 4 s, 5 t, 8 ints
//   TensorProto: 1 dims, 2 data_type, 5 int32_data, 7 int64_data, 8 name, 9 raw_data
//   ValueInfoProto: 1 name, 2 type; TypeProto: 1 tensor_type; TypeProto.Tensor: 2 shape;
//   TensorShapeProto: 1 dim; Dimension: 1 dim_value, 2 dim_param
// Unknown fields are skipped (newer ONNX versions add some).
#include "mapper/workload/import/onnx_proto.h"

#include "mapper/workload/import/protobuf_wire.h"

#include <cstring>

namespace mcmsim::onnx {

namespace {

using pb::Field;
using pb::Reader;

// Integer payloads larger than this are not decoded: shape tensors are tiny, weights are not.
constexpr std::size_t kMaxDecodedInts = 64;

Constant read_tensor(const Field& f, const std::string& file, std::string* name) {
    Reader r(f, file, "TensorProto");
    Constant t;
    std::vector<std::int64_t> int_data;
    const std::uint8_t* raw = nullptr;
    std::size_t raw_size = 0;
    Field x;
    while (r.next(x)) {
        switch (x.number) {
            case 1:
                r.append_int64s(x, t.dims);
                break;
            case 2:
                r.expect(x, pb::kVarint);
                t.data_type = static_cast<int>(x.value);
                break;
            case 5:  // int32_data
            case 7:  // int64_data
                if (int_data.size() <= kMaxDecodedInts) r.append_int64s(x, int_data);
                break;
            case 8:
                r.expect(x, pb::kBytes);
                if (name) *name = x.str();
                break;
            case 9:
                r.expect(x, pb::kBytes);
                raw = x.data;
                raw_size = x.size;
                break;  // a view, not a copy
            default:
                break;
        }
    }
    const bool integer = t.data_type == 6 || t.data_type == 7;  // INT32, INT64
    if (integer && !int_data.empty() && int_data.size() <= kMaxDecodedInts) t.ints = int_data;
    const std::size_t width = t.data_type == 7 ? 8 : 4;
    if (integer && raw && raw_size % width == 0 && raw_size / width <= kMaxDecodedInts) {
        std::vector<std::int64_t> v;
        for (std::size_t i = 0; i < raw_size; i += width) {
            if (width == 8) {
                std::int64_t x64;
                std::memcpy(&x64, raw + i, 8);  // ONNX raw_data is little-endian, as is the host
                v.push_back(x64);
            } else {
                std::int32_t x32;
                std::memcpy(&x32, raw + i, 4);
                v.push_back(x32);
            }
        }
        t.ints = v;
    }
    return t;
}

Shape read_shape(const Field& f, const std::string& file, std::vector<std::string>& params) {
    Shape shape;
    params.clear();
    Reader r(f, file, "TensorShapeProto");
    Field d;
    while (r.next(d)) {
        if (d.number != 1) continue;
        r.expect(d, pb::kBytes);
        Reader dr(d, file, "TensorShapeProto.Dimension");
        std::int64_t v = -1;
        std::string param;
        Field x;
        while (dr.next(x)) {
            if (x.number == 1 && x.wire == pb::kVarint) v = static_cast<std::int64_t>(x.value);
            if (x.number == 2 && x.wire == pb::kBytes) param = x.str();
        }
        shape.push_back(v < 0 ? -1 : v);
        params.push_back(v < 0 ? param : std::string());
    }
    return shape;
}

ValueInfo read_value_info(const Field& f, const std::string& file) {
    ValueInfo vi;
    Reader r(f, file, "ValueInfoProto");
    Field x;
    while (r.next(x)) {
        if (x.number == 1) {
            r.expect(x, pb::kBytes);
            vi.name = x.str();
        } else if (x.number == 2) {
            r.expect(x, pb::kBytes);
            Reader tr(x, file, "TypeProto");
            Field t;
            while (tr.next(t)) {
                if (t.number != 1 || t.wire != pb::kBytes) continue;  // tensor_type only
                Reader ttr(t, file, "TypeProto.Tensor");
                Field s;
                while (ttr.next(s))
                    if (s.number == 2 && s.wire == pb::kBytes) vi.shape = read_shape(s, file, vi.dim_params);
            }
        }
    }
    return vi;
}

Node read_node(const Field& f, const std::string& file) {
    Node n;
    Reader r(f, file, "NodeProto");
    Field x;
    while (r.next(x)) {
        switch (x.number) {
            case 1:
                r.expect(x, pb::kBytes);
                n.inputs.push_back(x.str());
                break;
            case 2:
                r.expect(x, pb::kBytes);
                n.outputs.push_back(x.str());
                break;
            case 3:
                r.expect(x, pb::kBytes);
                n.name = x.str();
                break;
            case 4:
                r.expect(x, pb::kBytes);
                n.op_type = x.str();
                break;
            case 7:
                r.expect(x, pb::kBytes);
                n.domain = x.str();
                break;
            case 5: {
                r.expect(x, pb::kBytes);
                Reader ar(x, file, "AttributeProto");
                std::string name;
                Attribute a;
                std::optional<Constant> tensor;
                Field y;
                while (ar.next(y)) {
                    switch (y.number) {
                        case 1:
                            ar.expect(y, pb::kBytes);
                            name = y.str();
                            break;
                        case 2: {
                            ar.expect(y, pb::kFixed32);
                            const auto bits = static_cast<std::uint32_t>(y.value);
                            float v;
                            std::memcpy(&v, &bits, 4);
                            a.f = v;
                            break;
                        }
                        case 3:
                            ar.expect(y, pb::kVarint);
                            a.i = static_cast<std::int64_t>(y.value);
                            break;
                        case 4:
                            ar.expect(y, pb::kBytes);
                            a.s = y.str();
                            break;
                        case 5:
                            ar.expect(y, pb::kBytes);
                            tensor = read_tensor(y, file, nullptr);
                            break;
                        case 8:
                            ar.append_int64s(y, a.ints);
                            break;
                        default:
                            break;
                    }
                }
                if (tensor && name == "value") n.value = tensor;
                n.attrs[name] = a;
                break;
            }
            default:
                break;
        }
    }
    return n;
}

Graph read_graph(const Field& f, const std::string& file) {
    Graph g;
    Reader r(f, file, "GraphProto");
    Field x;
    while (r.next(x)) {
        switch (x.number) {
            case 1:
                r.expect(x, pb::kBytes);
                g.nodes.push_back(read_node(x, file));
                break;
            case 2:
                r.expect(x, pb::kBytes);
                g.name = x.str();
                break;
            case 5: {
                r.expect(x, pb::kBytes);
                std::string name;
                Constant t = read_tensor(x, file, &name);
                g.initializers[name] = std::move(t);
                break;
            }
            case 11:
                r.expect(x, pb::kBytes);
                g.inputs.push_back(read_value_info(x, file));
                break;
            case 12:
                r.expect(x, pb::kBytes);
                g.outputs.push_back(read_value_info(x, file));
                break;
            case 13:
                r.expect(x, pb::kBytes);
                g.value_info.push_back(read_value_info(x, file));
                break;
            default:
                break;
        }
    }
    return g;
}

}  // namespace

Graph parse_model(const std::uint8_t* data, std::size_t size, const std::string& file) {
    Reader r(data, size, 0, file, "ModelProto");
    std::optional<Field> graph;
    bool ir_version = false, opset = false;
    Field x;
    while (r.next(x)) {
        if (x.number == 1) {
            r.expect(x, pb::kVarint);
            ir_version = true;
        } else if (x.number == 7) {
            r.expect(x, pb::kBytes);
            graph = x;
        } else if (x.number == 8) {
            r.expect(x, pb::kBytes);
            opset = true;
        }
    }
    // Every ONNX writer sets these; their absence means some other protobuf (or a file cut
    // short exactly between fields).
    if (!ir_version || !graph || !opset)
        throw InputError(file, "", "an ONNX model (a ModelProto with ir_version, graph and opset_import)",
                         std::string(!ir_version ? "no ir_version"
                                     : !graph    ? "no graph"
                                                 : "no opset_import") +
                             " in " + std::to_string(size) + " bytes");
    return read_graph(*graph, file);
}

int element_size(int data_type) {
    switch (data_type) {
        case 2:
        case 3:
        case 9:
        case 17:
        case 18:
        case 19:
        case 20:
            return 1;  // (u)int8, bool, float8
        case 4:
        case 5:
        case 10:
        case 16:
            return 2;  // (u)int16, float16, bfloat16
        case 1:
        case 6:
        case 12:
            return 4;  // float, (u)int32
        case 7:
        case 11:
        case 13:
        case 14:
            return 8;  // (u)int64, double, complex64
        case 15:
            return 16;
        default:
            return 0;
    }
}

}  // namespace mcmsim::onnx
