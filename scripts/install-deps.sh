#!/usr/bin/env bash
# Installs the Debian packages mcmsim builds and tests with. Idempotent: it asks dpkg which
# packages are missing and runs apt-get only for those, so a ready machine pays nothing.
set -euo pipefail

packages=(
  build-essential cmake pkg-config python3 clang-format git
  libsystemc-dev
  nlohmann-json3-dev
  libboost-dev libboost-program-options-dev
  libgtest-dev googletest libbenchmark-dev
  libonnx-dev libprotobuf-dev protobuf-compiler
  coinor-libcbc-dev
  # Sweeps: results in SQLite, points spread over MPI ranks.
  libsqlite3-dev libopenmpi-dev openmpi-bin
  # The HTML reports' tests: headless Chromium with a font, script(1) for a terminal.
  chromium fonts-dejavu-core bsdutils
  # `make fuzz-smoke` (tests/fuzz): the harnesses need clang, whose libFuzzer is in libclang-rt.
  clang libclang-rt-14-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
