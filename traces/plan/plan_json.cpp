// Plan <-> JSON.
//
// File format (format "mcmsim-plan", version 3; version 2 is the same without "inputs", version 1
// also without "transfers"):
//   {
//     "format": "mcmsim-plan", "version": 3,
//     "arch": str, "workload": str, "optimizer": str, "seed": uint,
//     "chiplets": int >= 1, "memories": int >= 0,
//     "layers": [ {"name": str, "macs": int >= 0, "inputs": [int, ...] (optional: earlier layers
//                  whose outputs it reads), "ops": [op, ...], "mapping": m (optional)}, ... ]
//   }
//   m (informative, written by the mapper, every key optional):
//       {"partition": str, "shares" / "row_shares" / "col_shares": [number >= 0, ...] (non-uniform
//        partitions only), "route": str, "collective": str, "multicasts": int,
//        "fallback": str (only when something went direct instead of the asked collective),
//        "package_bytes", "package_link_bytes", "max_link_bytes", "onchip_bytes", "dram_bytes": int,
//        layer-pipelined placement only: "segment": int >= 0, "group": {"row0", "col0", "rows",
//        "cols"} (the chiplet rectangle), "weights": "resident" | "per micro-batch",
//        and with micro-batches "micro_batch" and "micro_batches": int),
//        "weight_multicasts", "weight_dram_bytes_saved": int (only when weights were multicast),
//        "input_multicasts", "input_dram_bytes_saved": int (only when network inputs were multicast),
//        "spilled_bytes", "spilled_producers": int (only when output slices went to DRAM),
//        "spill_dram_bytes_saved": int (only when spilled input parts were read once and forwarded)}
//   op: {"id": int, "chiplet": int, "kind": str, "deps": [id, ...]   (omitted when empty)
//        plus, depending on "kind":
//          "compute":    "macs" (int >= 0), "sram_bytes" (int >= 0), "tile" (str, optional),
//                        "shape" (optional {"n","k","c","p","q","r","s","stride"}: the work's
//                        dimensions, c per group; its product must equal macs),
//                        "vector_ops" (optional int >= 0: element-wise operations)
//          "send":       "bytes" (> 0), "flow" (>= 0), "to" (chiplet),
//                        "route" (optional non-empty array of router ids)
//                        or "transfers": non-empty array of {"to", "bytes", "flow", "route"?}
//          "recv":       "bytes" (> 0), "flow" (>= 0), "from" (chiplet)
//                        or "transfers": non-empty array of {"from", "bytes", "flow"}
//        (a grouped op has no top-level bytes/flow/to/from/route: its bytes are the sum)
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
// integers (but for a mapping's shares, printed in their shortest round-trip form), so the
// same plan always produces the same bytes.
#include "traces/plan/plan.h"

#include "hw/common/integer_math.h"
#include "hw/config/json_input.h"

#include <climits>
#include <fstream>
#include <limits>

namespace mcmsim {

std::size_t Plan::op_count() const {
    std::size_t n = 0;
    for (const auto& layer : layers) n += layer.ops.size();
    return n;
}

// ---- writer ---------------------------------------------------------------------------

json plan_op_to_json(const PlanOp& op) {
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
        case OpKind::Recv: {
            const char* peer_key = op.kind == OpKind::Send ? "to" : "from";
            if (op.transfers.empty()) {
                o["bytes"] = op.bytes;
                o["flow"] = op.flow;
                o[peer_key] = op.peer;
                if (!op.route.empty()) o["route"] = op.route;
                break;
            }
            json list = json::array();
            for (const Transfer& t : op.transfers) {
                json j = {{peer_key, t.peer}, {"bytes", t.bytes}, {"flow", t.flow}};
                if (!t.route.empty()) j["route"] = t.route;
                list.push_back(std::move(j));
            }
            o["transfers"] = std::move(list);
            break;
        }
        case OpKind::DramRead:
        case OpKind::DramWrite:
            o["bytes"] = op.bytes;
            o["memory"] = op.memory;
            o["address"] = op.address;
            break;
    }
    return o;
}

namespace {

json mapping_to_json(const PlanLayerMapping& m) {
    json o = {{"partition", m.partition},           {"route", m.route},
              {"collective", m.collective},         {"multicasts", m.multicasts},
              {"package_bytes", m.package_bytes},   {"package_link_bytes", m.package_link_bytes},
              {"max_link_bytes", m.max_link_bytes}, {"onchip_bytes", m.onchip_bytes},
              {"dram_bytes", m.dram_bytes}};
    if (!m.shares.empty()) o["shares"] = m.shares;
    if (!m.row_shares.empty()) o["row_shares"] = m.row_shares;
    if (!m.col_shares.empty()) o["col_shares"] = m.col_shares;
    if (!m.fallback.empty()) o["fallback"] = m.fallback;
    // Placement keys only when set: a layer-sequential plan reads as it did before them.
    if (m.segment >= 0) o["segment"] = m.segment;
    if (m.group.rows > 0)
        o["group"] = {{"row0", m.group.row0}, {"col0", m.group.col0}, {"rows", m.group.rows}, {"cols", m.group.cols}};
    if (m.micro_batches > 0) {
        o["micro_batch"] = m.micro_batch;
        o["micro_batches"] = m.micro_batches;
    }
    if (m.weights != WeightResidency::None) o["weights"] = to_string(m.weights);
    if (m.weight_multicasts > 0) {
        o["weight_multicasts"] = m.weight_multicasts;
        o["weight_dram_bytes_saved"] = m.weight_dram_bytes_saved;
    }
    if (m.input_multicasts > 0) {
        o["input_multicasts"] = m.input_multicasts;
        o["input_dram_bytes_saved"] = m.input_dram_bytes_saved;
    }
    if (m.spilled_producers > 0) {
        o["spilled_bytes"] = m.spilled_bytes;
        o["spilled_producers"] = m.spilled_producers;
    }
    if (m.spill_dram_bytes_saved > 0) o["spill_dram_bytes_saved"] = m.spill_dram_bytes_saved;
    return o;
}

}  // namespace

json plan_to_json(const Plan& plan) {
    json doc = json::object();
    doc["format"] = Plan::kFormat;
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
        for (const auto& op : layer.ops) ops.push_back(plan_op_to_json(op));
        json l = json{{"name", layer.name}, {"macs", layer.macs}};
        if (!layer.inputs.empty()) l["inputs"] = layer.inputs;
        l["ops"] = std::move(ops);
        if (layer.mapping) l["mapping"] = mapping_to_json(*layer.mapping);
        layers.push_back(std::move(l));
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
    if (v.is_number_integer() && v.get<std::int64_t>() >= 0) return static_cast<std::uint64_t>(v.get<std::int64_t>());
    n.fail("a non-negative integer");
}

// Chiplet, memory and router indices: non-negative and small enough for an int. Whether they
// are in range for this plan is validate_plan's job.
int read_index(const JsonNode& n) { return static_cast<int>(n.integer_in(0, INT_MAX)); }

std::vector<int> read_route(const JsonNode& route) {
    // In memory an empty route means "no route", so reject it here where the difference is
    // still visible.
    auto hops = route.array();
    if (hops.empty()) route.fail("a non-empty array of router ids");
    std::vector<int> out;
    out.reserve(hops.size());
    for (const auto& h : hops) out.push_back(read_index(h));
    return out;
}

void read_op_body(JsonObject& o, PlanOp& op, int version) {
    op.chiplet = read_index(o.required("chiplet"));
    op.kind = o.required("kind").choice<OpKind>();
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
                // The shape's product is compared with the op's MACs (validate_plan): it must fit.
                std::optional<std::int64_t> product = op.shape.n;
                for (std::int64_t f : {op.shape.k, op.shape.c, op.shape.p, op.shape.q, op.shape.r, op.shape.s})
                    if (product) product = checked_mul(*product, f);
                if (!product) sh->fail("a shape whose product (its MACs) fits in 64 bits", "a larger product");
            }
            op.vector_ops = o.integer_in("vector_ops", 0, 0, kMaxI64);
            break;
        case OpKind::Send:
        case OpKind::Recv: {
            const bool send = op.kind == OpKind::Send;
            const char* peer_key = send ? "to" : "from";
            if (auto list = o.optional("transfers")) {
                if (version < 2)
                    list->fail("a single transfer (grouped \"transfers\" need plan version 2)",
                               "\"transfers\" in a version 1 plan");
                auto items = list->array();
                if (items.empty()) list->fail("a non-empty array of transfers");
                op.transfers.reserve(items.size());
                for (const auto& item : items) {
                    JsonObject to = item.object();
                    Transfer t;
                    t.peer = read_index(to.required(peer_key));
                    t.bytes = to.required("bytes").integer_in(0, kMaxI64);
                    t.flow = to.required("flow").integer_in(0, kMaxI64);
                    if (send)
                        if (auto route = to.optional("route")) t.route = read_route(*route);
                    to.finish();
                    // The sum cannot overflow silently: validate_plan compares it again.
                    op.bytes = t.bytes > kMaxI64 - op.bytes ? kMaxI64 : op.bytes + t.bytes;
                    op.transfers.push_back(std::move(t));
                }
                break;
            }
            op.bytes = o.required("bytes").integer_in(0, kMaxI64);
            op.flow = o.required("flow").integer_in(0, kMaxI64);
            op.peer = read_index(o.required(peer_key));
            if (send)
                if (auto route = o.optional("route")) op.route = read_route(*route);
            break;
        }
        case OpKind::DramRead:
        case OpKind::DramWrite:
            op.bytes = o.required("bytes").integer_in(0, kMaxI64);
            op.memory = read_index(o.required("memory"));
            op.address = read_uint(o.required("address"));
            break;
    }
    o.finish();
}

PlanOp read_op(const JsonNode& node, int version) {
    JsonObject o = node.object();
    PlanOp op;
    op.id = o.required("id").integer();
    // The pointer gives the op's position; adding its id lets users grep a 100k-op plan.
    try {
        read_op_body(o, op, version);
    } catch (const InputError& e) {
        throw InputError(e.file(), e.where(), e.expected(), e.found() + " (op " + std::to_string(op.id) + ")");
    }
    return op;
}

std::vector<double> read_shares(JsonObject& o, const char* key) {
    std::vector<double> out;
    if (auto list = o.optional(key))
        // Shares are relative weights; a million to one is finer than any tile split, and
        // their sum stays finite.
        for (const auto& x : list->array()) out.push_back(x.number_in(0, 1e6));
    return out;
}

PlanLayerMapping read_mapping(const JsonNode& node) {
    JsonObject o = node.object();
    PlanLayerMapping m;
    m.partition = o.string("partition", "");
    m.shares = read_shares(o, "shares");
    m.row_shares = read_shares(o, "row_shares");
    m.col_shares = read_shares(o, "col_shares");
    m.route = o.string("route", "");
    m.collective = o.string("collective", "");
    m.fallback = o.string("fallback", "");
    m.multicasts = o.integer_in("multicasts", 0, 0, kMaxI64);
    m.package_bytes = o.integer_in("package_bytes", 0, 0, kMaxI64);
    m.package_link_bytes = o.integer_in("package_link_bytes", 0, 0, kMaxI64);
    m.max_link_bytes = o.integer_in("max_link_bytes", 0, 0, kMaxI64);
    m.onchip_bytes = o.integer_in("onchip_bytes", 0, 0, kMaxI64);
    m.dram_bytes = o.integer_in("dram_bytes", 0, 0, kMaxI64);
    m.segment = static_cast<int>(o.integer_in("segment", -1, 0, INT_MAX));
    if (auto g = o.optional("group")) {
        JsonObject go = g->object();
        m.group.row0 = static_cast<int>(go.required("row0").integer_in(0, INT_MAX));
        m.group.col0 = static_cast<int>(go.required("col0").integer_in(0, INT_MAX));
        m.group.rows = static_cast<int>(go.required("rows").integer_in(1, INT_MAX));
        m.group.cols = static_cast<int>(go.required("cols").integer_in(1, INT_MAX));
        go.finish();
    }
    m.micro_batches = static_cast<int>(o.integer_in("micro_batches", 0, 1, INT_MAX));
    m.micro_batch = static_cast<int>(o.integer_in("micro_batch", 0, 0, INT_MAX));
    m.weights = o.choice("weights", WeightResidency::None);
    m.weight_multicasts = o.integer_in("weight_multicasts", 0, 0, kMaxI64);
    m.weight_dram_bytes_saved = o.integer_in("weight_dram_bytes_saved", 0, 0, kMaxI64);
    m.input_multicasts = o.integer_in("input_multicasts", 0, 0, kMaxI64);
    m.input_dram_bytes_saved = o.integer_in("input_dram_bytes_saved", 0, 0, kMaxI64);
    m.spilled_bytes = o.integer_in("spilled_bytes", 0, 0, kMaxI64);
    m.spilled_producers = static_cast<int>(o.integer_in("spilled_producers", 0, 0, INT_MAX));
    m.spill_dram_bytes_saved = o.integer_in("spill_dram_bytes_saved", 0, 0, kMaxI64);
    o.finish();
    return m;
}

PlanLayer read_layer(const JsonNode& node, int version, int index) {
    JsonObject o = node.object();
    PlanLayer layer;
    layer.name = o.required("name").string();
    layer.macs = o.required("macs").integer_in(0, kMaxI64);
    if (auto in = version >= 3 ? o.optional("inputs") : std::nullopt)
        for (const auto& i : in->array()) {
            if (index == 0) i.fail("no inputs: the first layer has no earlier layer to read");
            layer.inputs.push_back(static_cast<int>(i.integer_in(0, index - 1)));
        }
    auto ops = o.required("ops").array();
    layer.ops.reserve(ops.size());
    for (const auto& op : ops) layer.ops.push_back(read_op(op, version));
    if (auto m = o.optional("mapping")) layer.mapping = read_mapping(*m);
    o.finish();
    return layer;
}

}  // namespace

Plan plan_from_json(const json& doc, const std::string& file) {
    JsonObject root = json_root(doc, file).object();

    // Format and version first: a plan of another version may legitimately have other keys,
    // and "wrong version" is the useful message then, not "unknown key".
    JsonNode format = root.required("format");
    if (!format.is_string() || format.string() != Plan::kFormat) format.fail(std::string("format \"") + Plan::kFormat + "\"");
    JsonNode version_node = root.required("version");
    if (!version_node.raw().is_number_integer() || version_node.raw().get<std::int64_t>() < Plan::kMinVersion ||
        version_node.raw().get<std::int64_t>() > Plan::kVersion)
        version_node.fail("version " + std::to_string(Plan::kMinVersion) + " to " + std::to_string(Plan::kVersion));
    const int version = static_cast<int>(version_node.raw().get<std::int64_t>());

    Plan plan;
    plan.arch = root.required("arch").string();
    plan.workload = root.required("workload").string();
    plan.optimizer = root.required("optimizer").string();
    plan.seed = read_uint(root.required("seed"));
    plan.chiplets = static_cast<int>(root.required("chiplets").integer_in(1, INT_MAX));
    plan.memories = read_index(root.required("memories"));
    auto layers = root.required("layers").array();
    if (layers.empty()) root.required("layers").fail("at least one layer");
    plan.layers.reserve(layers.size());
    std::int64_t entries = 0;
    for (const auto& layer : layers) {
        plan.layers.push_back(read_layer(layer, version, static_cast<int>(plan.layers.size())));
        for (const PlanOp& op : plan.layers.back().ops) entries += 1 + static_cast<std::int64_t>(op.transfers.size());
        if (entries > Plan::kMaxEntries)
            layer.fail("a plan of at most " + std::to_string(Plan::kMaxEntries) + " ops and transfers",
                       std::to_string(entries) + " by this layer");
    }
    root.finish();

    validate_plan(plan, file);
    return plan;
}

Plan read_plan(const std::string& path) { return plan_from_json(load_json_file(path), path); }

}  // namespace mcmsim
