#!/usr/bin/env bash
# The HTML reports as a user opens them, in headless Chromium (Debian's chromium):
#  - report.html of `run` on the 4x4 package renders (screenshot not blank), its floorplan
#    has one element per chiplet, per directed link and per memory, and its figures equal
#    report.json's; the same for `estimate` on the written plan;
#  - the 36-chiplet ResNet-50 report.html is under 2 MB, self-contained (no script, nothing
#    fetched) and byte-identical across two runs;
#  - validation.html, codesign.html and sweep.html render with their charts;
#  - progress lines appear on a terminal (faked with script(1)) and never in a pipe, with
#    -q, or in any report file.
# usage: html_reports.sh <mcmsim> <configs dir> <tests/cli dir>
set -u
mcmsim=$1
configs=$2
here=$3
# shellcheck source=check_lib.sh
. "$(dirname "$0")/check_lib.sh"
py() { if python3 "$here/html_check.py" "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); fi; }
browser() {  # browser <html> <out prefix> [height]: a screenshot and the DOM as rendered
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1050,"${3:-3400}" \
    --screenshot="$2.png" "file://$1" > /dev/null 2>&1
  chromium --headless --no-sandbox --disable-gpu --dump-dom "file://$1" 2> /dev/null > "$2.dom"
}
command -v chromium > /dev/null || { echo "FAIL chromium not installed (scripts/install-deps.sh installs it)"; exit 1; }

# The 4x4 organic package: 16 chiplets; 2 x (4 x 3 + 3 x 4) = 48 directed links; 2 HBM stacks.
org=$configs/arch/mcm-4x4-organic-hbm-edge.json
"$mcmsim" run --arch "$org" --workload resnet50 --out "$work/run" > "$work/run.out" 2> "$work/run.err"
check "run exits 0 and writes report.html" "[ $? -eq 0 ] && [ -s '$work/run/report.html' ]"
browser "$work/run/report.html" "$work/run"
py png "$work/run.png"
py floorplan "$work/run.dom" 16 48 2
py report "$work/run.dom" "$work/run/report.json"
check "no progress line in a pipe" "! grep -q 'ops (' '$work/run.err' && ! grep -q \$'\\r' '$work/run.err'"

"$mcmsim" estimate --arch "$org" --plan "$work/run/plan.json" --out "$work/est" -q
browser "$work/est/report.html" "$work/est"
py floorplan "$work/est.dom" 16 48 2
py report "$work/est.dom" "$work/est/report.json"

# Simba 6x6: 36 chiplets, 2 x (6 x 5 + 5 x 6) = 120 links, and the memories its config lists.
"$mcmsim" run --arch "$configs/arch/simba-6x6.json" --workload resnet50 --out "$work/simba" -q
size=$(stat -c %s "$work/simba/report.html")
check "36-chiplet report.html is under 2 MB ($size bytes)" "[ $size -lt 2000000 ]"
check "report.html loads nothing and runs no script" \
  "! grep -qiE '<script|<link|src=|@import|url\\(' '$work/simba/report.html'"
"$mcmsim" run --arch "$configs/arch/simba-6x6.json" --workload resnet50 --out "$work/simba2" -q
check "report.html is byte-identical across runs" "cmp -s '$work/simba/report.html' '$work/simba2/report.html'"
browser "$work/simba/report.html" "$work/simba"
memories=$("$mcmsim" config --arch "$configs/arch/simba-6x6.json" --dump | python3 -c "import json, sys; print(len(json.load(sys.stdin)['memories']))")
py floorplan "$work/simba.dom" 36 120 "$memories"

# validate on the 2x2 package with the tiny workload.
"$mcmsim" validate --arch "$configs/arch/mcm-2x2.json" --workload "$here/tiny_workload.json" --out "$work/val" -q > /dev/null
check "validate writes validation.html" "[ -s '$work/val/validation.html' ]"
browser "$work/val/validation.html" "$work/val" 1300
py png "$work/val.png"
py validation "$work/val.dom" "$work/val/validation.json"

cat > "$work/space.json" <<'JSON'
{ "mapping": { "partitions": ["k", "p"], "units_per_part": 2, "routes": ["xy"] },
  "hardware": { "link_bandwidth_gbps": [32, 64], "diagonal_links": [false, true] } }
JSON
"$mcmsim" codesign --arch "$configs/arch/mcm-2x2.json" --workload "$here/tiny_workload.json" --space "$work/space.json" \
  --generations 2 --population 4 --out "$work/cd" -q > /dev/null
browser "$work/cd/codesign.html" "$work/cd" 1300
py png "$work/cd.png"
check "codesign.html plots every point and a chart per knob" \
  "[ \$(grep -o 'class=\"point' '$work/cd.dom' | wc -l) -eq 4 ] && grep -q 'best EdP by diagonal_links' '$work/cd.dom' && grep -q 'best EdP by link_bandwidth_gbps' '$work/cd.dom'"

# A sweep's page: the plane of its points and a chart per axis.
cat > "$work/sweep.json" <<JSON
{ "base": "$configs/arch/mcm-2x2.json", "axes": [ { "pointer": "/package/link", "presets": "links" } ],
  "workloads": [ { "model": "$here/tiny_workload.json" } ] }
JSON
"$mcmsim" sweep "$work/sweep.json" --out "$work/sw" -q > /dev/null
browser "$work/sw/sweep.html" "$work/sw" 1300
py png "$work/sw.png"
links=$(ls "$configs/links" | grep -c '\.json$')
check "sweep.html plots every point and a chart per axis" \
  "[ \$(grep -o 'class=\"point' '$work/sw.dom' | wc -l) -eq $links ] && grep -q 'best EdP by /package/link' '$work/sw.dom'"

# Progress on a terminal: script(1) gives the command one; the line goes to stderr only.
script -qec "'$mcmsim' run --arch '$org' --workload resnet50 --out '$work/tty' > '$work/tty.out'" "$work/tty.log" > /dev/null
check "progress shows ops done of total on a terminal" "grep -q 'simulate  [0-9]*/3456 ops' '$work/tty.log'"
check "progress never reaches stdout or report files" \
  "! grep -q 'ops (' '$work/tty.out' && ! grep -lq 'ops (' '$work/tty/report.json' '$work/tty/report.html'"
check "a terminal run's report.json equals the piped run's" "cmp -s '$work/tty/report.json' '$work/run/report.json'"
script -qec "'$mcmsim' run --arch '$org' --workload resnet50 --out '$work/ttyq' -q" "$work/ttyq.log" > /dev/null
check "-q silences progress on a terminal" "! grep -q 'ops (' '$work/ttyq.log'"

finish "html reports"
