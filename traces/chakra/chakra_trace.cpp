#include "traces/chakra/chakra_trace.h"

#include "hw/common/input_error.h"
#include "traces/chakra/et_def.pb.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl.h>
#include <google/protobuf/util/delimited_message_util.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <unordered_map>

namespace mcmsim {

namespace {

namespace et = ChakraProtoMsg;
namespace fs = std::filesystem;

/// The schema version the files claim: the upstream release whose field numbers they use.
constexpr const char* kChakraVersion = "0.0.4";

void attr_i64(et::Node& n, const char* name, std::int64_t v) {
    et::AttributeProto* a = n.add_attr();
    a->set_name(name);
    a->set_int64_val(v);
}
void attr_u64(et::Node& n, const char* name, std::uint64_t v) {
    et::AttributeProto* a = n.add_attr();
    a->set_name(name);
    a->set_uint64_val(v);
}
void attr_f64(et::Node& n, const char* name, double v) {
    et::AttributeProto* a = n.add_attr();
    a->set_name(name);
    a->set_double_val(v);
}
void attr_bool(et::Node& n, const char* name, bool v) {
    et::AttributeProto* a = n.add_attr();
    a->set_name(name);
    a->set_bool_val(v);
}
void attr_str(et::Node& n, const char* name, const std::string& v) {
    et::AttributeProto* a = n.add_attr();
    a->set_name(name);
    a->set_string_val(v);
}
template <typename T>
void attr_list(et::Node& n, const char* name, const std::vector<T>& v) {
    et::AttributeProto* a = n.add_attr();
    a->set_name(name);
    for (T x : v) a->mutable_int64_list()->add_values(static_cast<std::int64_t>(x));
}

et::NodeType node_type(OpKind k) {
    switch (k) {
        case OpKind::Compute:
            return et::COMP_NODE;
        case OpKind::Send:
            return et::COMM_SEND_NODE;
        case OpKind::Recv:
            return et::COMM_RECV_NODE;
        case OpKind::DramRead:
            return et::MEM_LOAD_NODE;
        case OpKind::DramWrite:
            return et::MEM_STORE_NODE;
    }
    return et::INVALID_NODE;
}

/// The plan without its ops: what the metadata carries as mcmsim.plan.
std::string plan_header(const Plan& plan) {
    nlohmann::json doc = plan_to_json(plan);
    for (auto& layer : doc["layers"]) layer.erase("ops");
    return doc.dump();
}

}  // namespace

ChakraFiles write_chakra(const Plan& plan, const std::vector<OpTimes>* times, const std::string& dir, const std::string& prefix) {
    if (times && times->size() != plan.op_count())
        throw std::invalid_argument("write_chakra: op times do not match the plan's ops");
    std::error_code ec;
    fs::create_directories(dir, ec);
    if (ec) throw InputError(dir, "", "a directory mcmsim can create", ec.message());
    const auto chiplets = static_cast<std::size_t>(plan.chiplets);
    std::vector<std::vector<et::Node>> nodes(chiplets);
    // Per op id: its chiplet and its nodes' ids (within its chiplet's file).
    std::unordered_map<std::int64_t, std::pair<std::size_t, std::size_t>> first_node;  // op -> (first id, count)
    std::size_t at = 0;
    for (std::size_t l = 0; l < plan.layers.size(); ++l) {
        const PlanLayer& layer = plan.layers[l];
        for (const PlanOp& op : layer.ops) {
            auto& mine = nodes[static_cast<std::size_t>(op.chiplet)];
            const std::size_t count = op.kind == OpKind::Send || op.kind == OpKind::Recv ? op.transfer_count() : 1;
            const std::size_t first = mine.size();
            first_node[op.id] = {first, count};
            for (std::size_t t = 0; t < count; ++t) {
                et::Node n;
                n.set_id(first + t);
                n.set_name(layer.name + "/" + to_string(op.kind) + "#" + std::to_string(op.id) +
                           (count > 1 ? "." + std::to_string(t) : std::string()));
                n.set_type(node_type(op.kind));
                for (std::int64_t d : op.deps) {
                    const auto [f, c] = first_node.at(d);  // deps are earlier ops of the same chiplet
                    for (std::size_t k = 0; k < c; ++k) n.add_data_deps(f + k);
                }
                if (times) {
                    const OpTimes& tm = (*times)[at];
                    const double start = std::max(0.0, tm.start_ns), dur = std::max(0.0, tm.end_ns - tm.start_ns);
                    n.set_start_time_micros(static_cast<std::uint64_t>(std::llround(start / 1000)));
                    n.set_duration_micros(static_cast<std::uint64_t>(std::llround(dur / 1000)));
                    attr_f64(n, "mcmsim.start_ns", start);
                    attr_f64(n, "mcmsim.duration_ns", dur);
                }
                attr_bool(n, "is_cpu_op", false);
                attr_i64(n, "mcmsim.op", op.id);
                attr_i64(n, "mcmsim.layer", static_cast<std::int64_t>(l));
                switch (op.kind) {
                    case OpKind::Compute:
                        attr_i64(n, "num_ops", 2 * op.macs + op.vector_ops);
                        attr_u64(n, "tensor_size", static_cast<std::uint64_t>(op.sram_bytes));
                        attr_i64(n, "mcmsim.macs", op.macs);
                        attr_i64(n, "mcmsim.vector_ops", op.vector_ops);
                        attr_i64(n, "mcmsim.sram_bytes", op.sram_bytes);
                        if (!op.tile.empty()) attr_str(n, "mcmsim.tile", op.tile);
                        if (!op.shape.empty()) {
                            const TileShape& s = op.shape;
                            attr_list(n, "mcmsim.shape", std::vector<std::int64_t>{s.n, s.k, s.c, s.p, s.q, s.r, s.s, s.stride});
                        }
                        break;
                    case OpKind::Send:
                    case OpKind::Recv: {
                        const TransferRef x = op.transfer(t);
                        const bool send = op.kind == OpKind::Send;
                        attr_i64(n, "comm_src", send ? op.chiplet : x.peer);
                        attr_i64(n, "comm_dst", send ? x.peer : op.chiplet);
                        attr_i64(n, "comm_size", x.bytes);
                        attr_i64(n, "comm_tag", x.flow);
                        attr_bool(n, "mcmsim.grouped", !op.transfers.empty());
                        if (x.route) attr_list(n, "mcmsim.route", *x.route);
                        break;
                    }
                    case OpKind::DramRead:
                    case OpKind::DramWrite:
                        attr_u64(n, "tensor_size", static_cast<std::uint64_t>(op.bytes));
                        attr_i64(n, "mcmsim.memory", op.memory);
                        attr_u64(n, "mcmsim.address", op.address);
                        break;
                }
                mine.push_back(std::move(n));
            }
            ++at;
        }
    }
    et::GlobalMetadata meta;
    meta.set_version(kChakraVersion);
    {
        et::AttributeProto* a = meta.add_attr();
        a->set_name("mcmsim.plan");
        a->set_string_val(plan_header(plan));
    }
    ChakraFiles out;
    for (std::size_t c = 0; c < chiplets; ++c) {
        const std::string path = (fs::path(dir) / (prefix + "." + std::to_string(c) + ".et")).string();
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        if (!f) throw InputError(path, "", "a file mcmsim can write", "cannot open it");
        et::GlobalMetadata m = meta;
        {
            et::AttributeProto* a = m.add_attr();
            a->set_name("mcmsim.chiplet");
            a->set_int64_val(static_cast<std::int64_t>(c));
        }
        bool ok = google::protobuf::util::SerializeDelimitedToOstream(m, &f);
        for (const et::Node& n : nodes[c]) ok = ok && google::protobuf::util::SerializeDelimitedToOstream(n, &f);
        f.close();
        if (!ok || !f) throw InputError(path, "", "a file mcmsim can write", "a write failed");
        out.files.push_back(path);
        out.nodes += static_cast<std::int64_t>(nodes[c].size());
    }
    return out;
}

namespace {

/// The attributes of one node, by name (each name once).
class Attrs {
public:
    Attrs(const google::protobuf::RepeatedPtrField<et::AttributeProto>& attrs, const std::string& file, const std::string& where)
        : file_(file), where_(where) {
        for (const et::AttributeProto& a : attrs)
            if (!by_name_.emplace(a.name(), &a).second)
                throw InputError(file, where, "each attribute once", "two named " + a.name());
    }
    const et::AttributeProto* find(const char* name) const {
        auto it = by_name_.find(name);
        return it == by_name_.end() ? nullptr : it->second;
    }
    const et::AttributeProto& need(const char* name, et::AttributeProto::ValueCase type, const char* what) const {
        const et::AttributeProto* a = find(name);
        if (!a) throw InputError(file_, where_, std::string("attribute ") + name + " (" + what + ")", "none");
        if (a->value_case() != type)
            throw InputError(file_, where_, std::string("attribute ") + name + " as " + what, "another type");
        return *a;
    }
    std::int64_t i64(const char* name) const { return need(name, et::AttributeProto::kInt64Val, "int64").int64_val(); }
    std::uint64_t u64(const char* name) const { return need(name, et::AttributeProto::kUint64Val, "uint64").uint64_val(); }
    bool flag(const char* name) const { return need(name, et::AttributeProto::kBoolVal, "bool").bool_val(); }
    std::vector<std::int64_t> list(const char* name) const {
        const auto& l = need(name, et::AttributeProto::kInt64List, "int64 list").int64_list();
        return {l.values().begin(), l.values().end()};
    }

private:
    std::string file_, where_;
    std::map<std::string, const et::AttributeProto*> by_name_;
};

int to_int(std::int64_t v, const std::string& file, const std::string& where, const char* what) {
    if (v < INT32_MIN || v > INT32_MAX) throw InputError(file, where, what, std::to_string(v));
    return static_cast<int>(v);
}

struct ReadOp {
    PlanOp op;
    std::int64_t layer = 0;
};

}  // namespace

Plan read_chakra(const std::string& dir) {
    if (!fs::is_directory(dir)) throw InputError(dir, "", "a directory of Chakra ET files", "no such directory");
    const std::regex name_re(R"(^(.*)\.([0-9]+)\.et$)");
    std::map<int, std::string> files;
    std::string prefix;
    for (const auto& entry : fs::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        std::smatch m;
        if (!std::regex_match(name, m, name_re)) continue;
        if (!prefix.empty() && m[1].str() != prefix)
            throw InputError(dir, "", "the ETs of one trace (one prefix)", "\"" + prefix + "\" and \"" + m[1].str() + "\"");
        prefix = m[1].str();
        if (m[2].str().size() > 6) throw InputError(entry.path().string(), "", "a chiplet number below 1000000", m[2].str());
        files[std::stoi(m[2].str())] = entry.path().string();
    }
    if (files.empty()) throw InputError(dir, "", "files named <prefix>.<chiplet>.et", "none");
    const int chiplets = static_cast<int>(files.size());
    if (files.rbegin()->first != chiplets - 1)
        throw InputError(dir, "", "ETs numbered 0 to " + std::to_string(chiplets - 1),
                         "a gap (last " + std::to_string(files.rbegin()->first) + ")");
    std::string header;
    std::vector<ReadOp> ops;
    std::unordered_map<std::int64_t, std::size_t> op_at;  // op id -> index in ops
    for (const auto& [chiplet, path] : files) {
        std::ifstream f(path, std::ios::binary);
        if (!f) throw InputError(path, "", "a readable file", "cannot open it");
        google::protobuf::io::IstreamInputStream raw(&f);
        et::GlobalMetadata meta;
        bool clean_eof = false;
        if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(&meta, &raw, &clean_eof))
            throw InputError(path, "metadata", "a length-delimited GlobalMetadata",
                             clean_eof ? "an empty file" : "malformed or truncated data");
        const Attrs meta_attrs(meta.attr(), path, "metadata");
        if (!meta_attrs.find("mcmsim.plan"))
            throw InputError(path, "metadata", "attribute mcmsim.plan (an ET written by mcmsim)", "none");
        const std::string mine = meta_attrs.need("mcmsim.plan", et::AttributeProto::kStringVal, "string").string_val();
        if (header.empty()) header = mine;
        else if (mine != header) throw InputError(path, "metadata", "the same mcmsim.plan as the other ETs", "a different plan");
        std::unordered_map<std::uint64_t, std::int64_t> node_op;  // node id -> op id
        for (std::int64_t k = 0;; ++k) {
            et::Node n;
            const std::string where = "node " + std::to_string(k);
            if (!google::protobuf::util::ParseDelimitedFromZeroCopyStream(&n, &raw, &clean_eof)) {
                if (clean_eof) break;
                throw InputError(path, where, "a length-delimited Node", "malformed or truncated data");
            }
            const Attrs a(n.attr(), path, where);
            const std::int64_t id = a.i64("mcmsim.op");
            const std::int64_t layer = a.i64("mcmsim.layer");
            if (!node_op.emplace(n.id(), id).second) throw InputError(path, where, "a node id used once", std::to_string(n.id()));
            OpKind kind;
            switch (n.type()) {
                case et::COMP_NODE:
                    kind = OpKind::Compute;
                    break;
                case et::COMM_SEND_NODE:
                    kind = OpKind::Send;
                    break;
                case et::COMM_RECV_NODE:
                    kind = OpKind::Recv;
                    break;
                case et::MEM_LOAD_NODE:
                    kind = OpKind::DramRead;
                    break;
                case et::MEM_STORE_NODE:
                    kind = OpKind::DramWrite;
                    break;
                default:
                    throw InputError(path, where, "a COMP, COMM_SEND, COMM_RECV, MEM_LOAD or MEM_STORE node",
                                     "type " + std::to_string(static_cast<int>(n.type())));
            }
            auto [it, fresh] = op_at.emplace(id, ops.size());
            if (fresh) {
                ReadOp r;
                r.op.id = id;
                r.op.chiplet = chiplet;
                r.op.kind = kind;
                r.layer = layer;
                for (std::uint64_t d : n.data_deps()) {
                    auto dep = node_op.find(d);
                    if (dep == node_op.end())
                        throw InputError(path, where, "data_deps on earlier nodes of this ET", std::to_string(d));
                    if (std::find(r.op.deps.begin(), r.op.deps.end(), dep->second) == r.op.deps.end())
                        r.op.deps.push_back(dep->second);
                }
                ops.push_back(std::move(r));
            }
            ReadOp& r = ops[it->second];
            if (r.op.chiplet != chiplet || r.op.kind != kind || r.layer != layer)
                throw InputError(path, where,
                                 "the nodes of op " + std::to_string(id) + " together, of one kind, layer and chiplet",
                                 "a node that differs");
            switch (kind) {
                case OpKind::Compute:
                    r.op.macs = a.i64("mcmsim.macs");
                    r.op.vector_ops = a.i64("mcmsim.vector_ops");
                    r.op.sram_bytes = a.i64("mcmsim.sram_bytes");
                    if (const et::AttributeProto* t = a.find("mcmsim.tile")) r.op.tile = t->string_val();
                    if (a.find("mcmsim.shape")) {
                        const std::vector<std::int64_t> s = a.list("mcmsim.shape");
                        if (s.size() != 8) throw InputError(path, where, "mcmsim.shape of 8 values", std::to_string(s.size()));
                        r.op.shape = TileShape{s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]};
                    }
                    break;
                case OpKind::Send:
                case OpKind::Recv: {
                    const bool send = kind == OpKind::Send;
                    const std::int64_t self = a.i64(send ? "comm_src" : "comm_dst");
                    if (self != chiplet)
                        throw InputError(
                            path, where,
                            std::string(send ? "comm_src" : "comm_dst") + " = this ET's chiplet " + std::to_string(chiplet),
                            std::to_string(self));
                    Transfer x;
                    x.peer = to_int(a.i64(send ? "comm_dst" : "comm_src"), path, where, "a chiplet number");
                    x.bytes = a.i64("comm_size");
                    x.flow = a.i64("comm_tag");
                    if (a.find("mcmsim.route"))
                        for (std::int64_t v : a.list("mcmsim.route"))
                            x.route.push_back(to_int(v, path, where, "a router number"));
                    if (a.flag("mcmsim.grouped")) {
                        r.op.bytes += x.bytes;
                        r.op.transfers.push_back(std::move(x));
                    } else {
                        if (r.op.flow >= 0) throw InputError(path, where, "one transfer for an ungrouped op", "a second one");
                        r.op.peer = x.peer, r.op.bytes = x.bytes, r.op.flow = x.flow, r.op.route = std::move(x.route);
                    }
                    break;
                }
                case OpKind::DramRead:
                case OpKind::DramWrite:
                    r.op.bytes = static_cast<std::int64_t>(a.u64("tensor_size"));
                    r.op.memory = to_int(a.i64("mcmsim.memory"), path, where, "a memory number");
                    r.op.address = a.u64("mcmsim.address");
                    break;
            }
        }
    }
    nlohmann::json doc = nlohmann::json::parse(header, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("layers") || !doc["layers"].is_array())
        throw InputError(files.begin()->second, "metadata", "mcmsim.plan holding a plan's JSON", "something else");
    auto& layers = doc["layers"];
    for (auto& l : layers) l["ops"] = nlohmann::json::array();
    std::sort(ops.begin(), ops.end(), [](const ReadOp& a, const ReadOp& b) { return a.op.id < b.op.id; });
    for (const ReadOp& r : ops) {
        if (r.layer < 0 || r.layer >= static_cast<std::int64_t>(layers.size()))
            throw InputError(files.begin()->second, "op " + std::to_string(r.op.id), "a layer of the plan",
                             std::to_string(r.layer));
        layers[static_cast<std::size_t>(r.layer)]["ops"].push_back(plan_op_to_json(r.op));
    }
    return plan_from_json(doc, dir);
}

}  // namespace mcmsim
