// The Chrome/Perfetto trace writer: tracks, events, units and a deterministic output.
#include "hw/config/json_input.h"
#include "traces/report/perfetto_trace.h"

#include "tests/support/file_text.h"

#include <gtest/gtest.h>

#include <sstream>

namespace mcmsim {
namespace test_perfetto_trace {

TEST(TraceWriter, TracksEventsAndUnits) {
    TraceWriter w;
    const int compute = w.track("chiplet 0", "compute");
    const int dma = w.track("chiplet 0", "dma");
    const int link = w.track("noc", "link 0->1");
    EXPECT_EQ(w.track("chiplet 0", "compute"), compute);  // stable on reuse
    EXPECT_NE(compute, dma);

    w.complete(compute, "gemm", "compute", 1500.0, 250.0, {{"macs", 1000}});
    w.complete(link, "flow 0", "noc", 2000.0, 1000.0);
    w.counter(dma, "queue depth", 3000.0, 4.0);

    const json doc = w.to_json();
    EXPECT_EQ(doc["displayTimeUnit"], "ns");
    const json& events = doc["traceEvents"];
    ASSERT_TRUE(events.is_array());
    EXPECT_EQ(events.size(), w.event_count());

    std::map<std::string, std::pair<int, int>> thread_ids;  // thread name -> (pid, tid)
    std::map<int, std::string> process_names;
    const json* gemm = nullptr;
    const json* flow = nullptr;
    for (const json& e : events) {
        if (e["ph"] == "M" && e["name"] == "process_name") process_names[e["pid"].get<int>()] = e["args"]["name"];
        if (e["ph"] == "M" && e["name"] == "thread_name")
            thread_ids[e["args"]["name"]] = {e["pid"].get<int>(), e["tid"].get<int>()};
        if (e["ph"] == "X" && e["name"] == "gemm") gemm = &e;
        if (e["ph"] == "X" && e["name"] == "flow 0") flow = &e;
    }
    EXPECT_EQ(process_names, (std::map<int, std::string>{{1, "chiplet 0"}, {2, "noc"}}));
    EXPECT_EQ(thread_ids["compute"], std::make_pair(1, 1));
    EXPECT_EQ(thread_ids["dma"], std::make_pair(1, 2));
    EXPECT_EQ(thread_ids["link 0->1"], std::make_pair(2, 1));

    ASSERT_NE(gemm, nullptr);
    EXPECT_DOUBLE_EQ((*gemm)["ts"].get<double>(), 1.5);  // ns -> us
    EXPECT_DOUBLE_EQ((*gemm)["dur"].get<double>(), 0.25);
    EXPECT_EQ((*gemm)["cat"], "compute");
    EXPECT_EQ((*gemm)["args"]["macs"], 1000);
    EXPECT_EQ((*gemm)["pid"], 1);
    EXPECT_EQ((*gemm)["tid"], 1);
    ASSERT_NE(flow, nullptr);
    EXPECT_DOUBLE_EQ((*flow)["ts"].get<double>(), 2.0);
    EXPECT_DOUBLE_EQ((*flow)["dur"].get<double>(), 1.0);
    EXPECT_EQ((*flow)["pid"], 2);
    EXPECT_FALSE(flow->contains("args"));

    EXPECT_THROW(w.complete(99, "x", "y", 0, 1), std::out_of_range);
}

TEST(TraceWriter, OutputIsDeterministic) {
    auto build = [] {
        TraceWriter w;
        int t = w.track("p", "t");
        w.complete(t, "a", "c", 0.0, 1.0);
        w.complete(t, "b", "c", 1.0, 2.0, {{"k", "v"}});
        return w;
    };
    const std::string path = ::testing::TempDir() + "mcmsim_trace.json";
    build().write(path);
    const std::string first = test::file_text(path);
    build().write(path);
    EXPECT_EQ(first, test::file_text(path));
    EXPECT_EQ(json::parse(first), build().to_json());
}

}  // namespace test_perfetto_trace
}  // namespace mcmsim
