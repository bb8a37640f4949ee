#pragma once
// A file's bytes, for tests that compare outputs byte for byte.
#include <fstream>
#include <sstream>
#include <string>

namespace mcmsim::test {

inline std::string file_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace mcmsim::test
