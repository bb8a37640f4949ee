#!/usr/bin/env bash
# Makes the screenshots of the HTML reports shown in docs/reports.md, in headless Chromium.
#
#   scripts/docs/report_screenshots.sh <mcmsim> <configs-dir> <out-dir>
#   e.g. scripts/docs/report_screenshots.sh build/sim/mcmsim configs docs/img
#
# report.png: `mcmsim run` of ResNet-50 on mcm-4x4-organic-hbm-edge (uniform mapping);
# validation.png: `mcmsim validate --sensitivity` of the same on mcm-2x2 with the tiny CLI
# test workload; codesign.png: `mcmsim codesign` of that workload on mcm-2x2 over link
# bandwidth x diagonal links. Each PNG is the top of its page at 1050 px wide.
set -euo pipefail

if [ $# -ne 3 ]; then
  echo "usage: $0 <mcmsim> <configs-dir> <out-dir>" >&2
  exit 2
fi
mcmsim=$1
configs=$2
out=$3
here=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

shot() {  # shot <html> <png> <height>
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1050,"$3" \
    --screenshot="$2" "file://$1" > /dev/null 2>&1
  echo "wrote $2"
}

tiny=$here/tests/cli/tiny_workload.json
"$mcmsim" run --arch "$configs/arch/mcm-4x4-organic-hbm-edge.json" --workload resnet50 --out "$work/run" -q
shot "$work/run/report.html" "$out/report.png" 3200
"$mcmsim" validate --arch "$configs/arch/mcm-2x2.json" --workload "$tiny" --sensitivity --out "$work/val" -q > /dev/null
shot "$work/val/validation.html" "$out/validation.png" 1250
cat > "$work/space.json" <<'JSON'
{ "mapping": { "partitions": ["k", "p"], "units_per_part": 2, "routes": ["xy"] },
  "hardware": { "link_bandwidth_gbps": [32, 64, 128], "diagonal_links": [false, true] } }
JSON
"$mcmsim" codesign --arch "$configs/arch/mcm-2x2.json" --workload "$tiny" --space "$work/space.json" \
  --generations 2 --population 4 --out "$work/cd" -q > /dev/null
shot "$work/cd/codesign.html" "$out/codesign.png" 1250
