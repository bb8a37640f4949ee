// Entry point for SystemC test binaries. SystemC elaborates once per process, so every test
// runs in its own process (gtest_discover_tests) and this sc_main only hands over to gtest.
// SystemC warnings and errors become test failures instead of scrolling past.
#include <gtest/gtest.h>
#include <systemc>

namespace {
void report_to_gtest(const sc_core::sc_report& rep, const sc_core::sc_actions& actions) {
    if (rep.get_severity() >= sc_core::SC_WARNING) {
        ADD_FAILURE() << "SystemC " << (rep.get_severity() == sc_core::SC_WARNING ? "warning" : "error") << " ["
                      << rep.get_msg_type() << "]: " << rep.get_msg();
    }
    // Let SystemC still throw on errors so the failing test stops where it broke.
    if (rep.get_severity() >= sc_core::SC_ERROR) sc_core::sc_report_handler::default_handler(rep, actions & ~sc_core::SC_DISPLAY);
}
}  // namespace

int sc_main(int argc, char** argv) {
    sc_core::sc_report_handler::set_handler(report_to_gtest);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
