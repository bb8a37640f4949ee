// Plan <-> JSON.
//
// File format (format "mcmsim-plan", version 1):
//   {
//     "format": "mcmsim-plan", "version": 1,
//     "arch": str, "workload": str, "optimizer": str, "seed": uint,
//     "chiplets": int >= 1, "memories": int >= 0,
//     "layers": [ {"name": str, "macs": int >= 0, "ops": [op, ...]}, ... ]
//   }
//   op: {"id": int, "chiplet": int, "kind": str, "deps": [id, ...]   (omitted when empty)
//        plus, depending on "kind":
//          "compute":    "macs" (int >= 0), "sram_bytes" (int >= 0), "tile" (str, optional),
//                        "shape" (optional {"n","k","c","p","q","r","s","stride"}: the work's
//                        dimensions, c per group; its product must equal macs),
//                        "vector_ops" (optional int >= 0: element-wise operations)
//          "send":       "bytes" (> 0), "flow" (>= 0), "to" (chiplet),
//                        "route" (optional non-empty array of router ids)
//          "recv":       "bytes" (> 0), "flow" (>= 0), "from" (chiplet)
//          "dram_read",
//          "dram_write": "bytes" (> 0), "memory" (memory index), "address" (uint)}
//
// The reader is strict: only the keys valid for an op's kind are accepted, so a stray "macs"
// on a send op is an error rather than silently dropped. The reader checks types and signs;
// everything that relates ops to each other or to the plan header (id order, deps, ranges,
// send/recv pairing, positive byte counts) is left to validate_plan so that plans built in
// memory by a mapper get exactly the same checks and messages.
//
// The writer emits keys in sorted order (nlohmann::json objects are ordered maps) and only
// integers, so the same plan always produces the same bytes.
#include "traces/plan.h"

#include "hw/config/json_input.h"

#include <climits>
#include <fstream>
#include <limits>

namespace mcmsim {

const char* to_string(OpKind kind) {
    switch (kind) {
        case OpKind::Compute: return "compute";
        case OpKind::Send: return "send";
        case OpKind::Recv: return "recv";
        case OpKind::DramRead: return "dram_read";
        case OpKind::DramWrite: return "dram_write";
    }
    return "unknown";
}

std::size_t Plan::op_count() const {
    std::size_t n = 0;
    for (const auto& layer : layers) n += layer.ops.size();
    return n;
}

// ---- writer ---------------------------------------------------------------------------

namespace {

json op_to_json(const PlanOp& op) {
    json o = json::object();
    o["id"] = op.id;
    o["chiplet"] = op.chiplet;
    o["kind"] = to_string(op.kind);
    if (!op.deps.empty()) o["deps"] = op.deps;
    switch (op.kind) {
        case OpKind::Compute:
            o["macs"] = op.macs;
            o["sram_bytes"] = op.sram_bytes;
            if (!op.tile.empty()) o["tile"] = op.tile;
            if (!op.shape.empty())
                o["shape"] = {{"n", op.shape.n}, {"k", op.shape.k}, {"c", op.shape.c}, {"p", op.shape.p},
                              {"q", op.shape.q}, {"r", op.shape.r}, {"s", op.shape.s}, {"stride", op.shape.stride}};
            if (op.vector_ops != 0) o["vector_ops"] = op.vector_ops;
            break;
        case OpKind::Send:
            o["bytes"] = op.bytes;
            o["flow"] = op.flow;
            o["to"] = op.peer;
            if (!op.route.empty()) o["route"] = op.route;
            break;
        case OpKind::Recv:
            o["bytes"] = op.bytes;
            o["flow"] = op.flow;
            o["from"] = op.peer;
            break;
        case OpKind::DramRead:
        case OpKind::DramWrite:
            o["bytes"] = op.bytes;
            o["memory"] = op.memory;
            o["address"] = op.address;
            break;
    }
    return o;
}

}  // namespace

json plan_to_json(const Plan& plan) {
    json doc = json::object();
    doc["format"] = "mcmsim-plan";
    doc["version"] = Plan::kVersion;
    doc["arch"] = plan.arch;
    doc["workload"] = plan.workload;
    doc["optimizer"] = plan.optimizer;
    doc["seed"] = plan.seed;
    doc["chiplets"] = plan.chiplets;
    doc["memories"] = plan.memories;
    json layers = json::array();
    for (const auto& layer : plan.layers) {
        json ops = json::array();
        for (const auto& op : layer.ops) ops.push_back(op_to_json(op));
        layers.push_back(json{{"name", layer.name}, {"macs", layer.macs}, {"ops", std::move(ops)}});
    }
    doc["layers"] = std::move(layers);
    return doc;
}

void write_plan(const Plan& plan, const std::string& path) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(path, "", "a writable file", "none (cannot open)");
    out << plan_to_json(plan).dump(1) << '\n';
    if (!out) throw InputError(path, "", "a writable file", "a write error");
}

// ---- reader ---------------------------------------------------------------------------

namespace {

constexpr std::int64_t kMaxI64 = std::numeric_limits<std::int64_t>::max();

// JsonNode::integer stops at 2^63; seeds and addresses are full 64-bit unsigned values.
std::uint64_t read_uint(const JsonNode& n) {
    const json& v = n.raw();
    if (v.is_number_unsigned()) return v.get<std::uint64_t>();
    if (v.is_number_integer() && v.get<std::int64_t>() >= 0)
        return static_cast<std::uint64_t>(v.get<std::int64_t>());
    n.fail("a non-negative integer");
}

// Chiplet, memory and router indices: non-negative and small enough for an int. Whether they
// are in range for this plan is validate_plan's job.
int read_index(const JsonNode& n) { return static_cast<int>(n.integer_in(0, INT_MAX)); }

OpKind kind_from_string(const std::string& s) {
    if (s == "compute") return OpKind::Compute;
    if (s == "send") return OpKind::Send;
    if (s == "recv") return OpKind::Recv;
    if (s == "dram_read") return OpKind::DramRead;
    return OpKind::DramWrite;  // one_of() has already rejected anything else
}

void read_op_body(JsonObject& o, PlanOp& op) {
    op.chiplet = read_index(o.required("chiplet"));
    op.kind = kind_from_string(
        o.required("kind").one_of({"compute", "send", "recv", "dram_read", "dram_write"}));
    if (auto deps = o.optional("deps"))
        for (const auto& d : deps->array()) op.deps.push_back(d.integer());

    switch (op.kind) {
        case OpKind::Compute:
            op.macs = o.required("macs").integer_in(0, kMaxI64);
            op.sram_bytes = o.required("sram_bytes").integer_in(0, kMaxI64);
            op.tile = o.string("tile", "");
            if (auto sh = o.optional("shape")) {
                JsonObject so = sh->object();
                op.shape.n = so.required("n").integer_in(1, kMaxI64);
                op.shape.k = so.required("k").integer_in(1, kMaxI64);
                op.shape.c = so.required("c").integer_in(1, kMaxI64);
                op.shape.p = so.required("p").integer_in(1, kMaxI64);
                op.shape.q = so.required("q").integer_in(1, kMaxI64);
                op.shape.r = so.required("r").integer_in(1, kMaxI64);
                op.shape.s = so.required("s").integer_in(1, kMaxI64);
                op.shape.stride = so.required("stride").integer_in(1, kMaxI64);
                so.finish();
            }
            op.vector_ops = o.integer_in("vector_ops", 0, 0, kMaxI64);
            break;
        case OpKind::Send:
        case OpKind::Recv:
            op.bytes = o.required("bytes").integer_in(0, kMaxI64);
            op.flow = o.required("flow").integer_in(0, kMaxI64);
            op.peer = read_index(o.required(op.kind == OpKind::Send ? "to" : "from"));
            if (op.kind == OpKind::Send) {
                if (auto route = o.optional("route")) {
                    // In memory an empty route means "no route", so reject it here where
                    // the difference is still visible.
                    auto hops = route->array();
                    if (hops.empty()) route->fail("a non-empty array of router ids");
                    for (const auto& h : hops) op.route.push_back(read_index(h));
                }
            }
            break;
        case OpKind::DramRead:
        case OpKind::DramWrite:
            op.bytes = o.required("bytes").integer_in(0, kMaxI64);
            op.memory = read_index(o.required("memory"));
            op.address = read_uint(o.required("address"));
            break;
    }
    o.finish();
}

PlanOp read_op(const JsonNode& node) {
    JsonObject o = node.object();
    PlanOp op;
    op.id = o.required("id").integer();
    // The pointer gives the op's position; adding its id lets users grep a 100k-op plan.
    try {
        read_op_body(o, op);
    } catch (const InputError& e) {
        throw InputError(e.file(), e.where(), e.expected(),
                         e.found() + " (op " + std::to_string(op.id) + ")");
    }
    return op;
}

PlanLayer read_layer(const JsonNode& node) {
    JsonObject o = node.object();
    PlanLayer layer;
    layer.name = o.required("name").string();
    layer.macs = o.required("macs").integer_in(0, kMaxI64);
    auto ops = o.required("ops").array();
    layer.ops.reserve(ops.size());
    for (const auto& op : ops) layer.ops.push_back(read_op(op));
    o.finish();
    return layer;
}

}  // namespace

Plan plan_from_json(const json& doc, const std::string& file) {
    JsonObject root = json_root(doc, file).object();

    // Format and version first: a plan of another version may legitimately have other keys,
    // and "wrong version" is the useful message then, not "unknown key".
    JsonNode format = root.required("format");
    if (!format.is_string() || format.string() != "mcmsim-plan")
        format.fail("format \"mcmsim-plan\"");
    JsonNode version = root.required("version");
    if (!version.raw().is_number_integer() ||
        version.raw().get<std::int64_t>() != Plan::kVersion)
        version.fail("version " + std::to_string(Plan::kVersion));

    Plan plan;
    plan.arch = root.required("arch").string();
    plan.workload = root.required("workload").string();
    plan.optimizer = root.required("optimizer").string();
    plan.seed = read_uint(root.required("seed"));
    plan.chiplets = static_cast<int>(root.required("chiplets").integer_in(1, INT_MAX));
    plan.memories = read_index(root.required("memories"));
    auto layers = root.required("layers").array();
    plan.layers.reserve(layers.size());
    for (const auto& layer : layers) plan.layers.push_back(read_layer(layer));
    root.finish();

    validate_plan(plan, file);
    return plan;
}

Plan read_plan(const std::string& path) { return plan_from_json(load_json_file(path), path); }

}  // namespace mcmsim
