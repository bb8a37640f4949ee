// Layer constructors for the zoo builders (see zoo_builders.h).
#include "mapper/workload/zoo/zoo_builders.h"

namespace mcmsim::zoo {

namespace {

int append(Workload& wl, Layer l) {
    l.n = wl.batch;
    wl.layers.push_back(std::move(l));
    return static_cast<int>(wl.layers.size()) - 1;
}

}  // namespace

int add_conv(Workload& wl, const std::string& name, std::int64_t c, std::int64_t hw, std::int64_t k, std::int64_t rs,
             std::int64_t stride, std::int64_t pad, std::vector<int> inputs, std::int64_t groups) {
    Layer l;
    l.name = name;
    l.kind = LayerKind::Conv;
    l.c = c;
    l.h = l.w = hw;
    l.k = k;
    l.r = l.s = rs;
    l.stride = stride;
    l.pad = pad;
    l.groups = groups;
    l.p = l.q = (hw + 2 * pad - rs) / stride + 1;
    l.inputs = std::move(inputs);
    return append(wl, std::move(l));
}

int add_fc(Workload& wl, const std::string& name, std::int64_t c, std::int64_t k, std::int64_t rows, std::vector<int> inputs) {
    Layer l;
    l.name = name;
    l.kind = LayerKind::FullyConnected;
    l.c = c;
    l.k = k;
    l.h = l.p = rows;
    l.inputs = std::move(inputs);
    return append(wl, std::move(l));
}

int add_matmul(Workload& wl, const std::string& name, std::int64_t heads, std::int64_t m, std::int64_t kdim, std::int64_t ncols,
               std::vector<int> inputs) {
    Layer l;
    l.name = name;
    l.kind = LayerKind::MatMul;
    l.heads = heads;
    l.h = l.p = m;
    l.c = kdim;
    l.k = ncols;
    l.inputs = std::move(inputs);
    return append(wl, std::move(l));
}

int add_vector(Workload& wl, const std::string& name, const std::string& op, std::int64_t c, std::int64_t h, std::int64_t w,
               std::vector<int> inputs, std::int64_t operands) {
    Layer l;
    l.name = name;
    l.kind = LayerKind::Vector;
    l.set_op(op);
    l.c = l.k = c;
    l.h = l.p = h;
    l.w = l.q = w;
    l.operands = operands;
    l.inputs = std::move(inputs);
    return append(wl, std::move(l));
}

}  // namespace mcmsim::zoo
