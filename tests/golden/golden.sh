#!/usr/bin/env bash
# Golden outputs: a few report.json / plan.json / validation.json files committed next to this
# script, compared byte for byte with what the current build writes. A change that moves any
# result shows up here, and in review as a diff of these files.
#
#   tests/golden/golden.sh check  <mcmsim> <configs dir>   # ctest runs this
#   tests/golden/golden.sh update <mcmsim> <configs dir>   # rewrite them on purpose, then review the diff
set -u
mode=$1
mcmsim=$2
configs=$3
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
arch=$configs/arch/mcm-2x2.json
tiny=$here/../cli/tiny_workload.json

# case  file-it-writes  command...
run_case() {
  local name=$1
  shift
  mkdir -p "$work/$name"
  if ! "$mcmsim" "$@" > "$work/$name/stdout" 2>&1; then
    echo "FAIL $name: mcmsim $* exited non-zero"
    cat "$work/$name/stdout"
    exit 1
  fi
}
run_case packet run --arch "$arch" --workload resnet50 --out "$work/packet" --quiet
run_case vc run --arch "$here/inputs/mcm-2x2-vc.json" --workload resnet50 --out "$work/vc" --quiet
run_case ga map --arch "$arch" --workload "$tiny" --optimizer ga --seed 3 --generations 4 --population 8 \
  --out "$work/ga/plan.json" --quiet
run_case estimate estimate --arch "$arch" --plan "$work/packet/plan.json" --granularity packet --out "$work/estimate" --quiet
run_case validate validate --arch "$arch" --plan "$work/packet/plan.json" --out "$work/validate" --quiet

files=(packet/report.json packet/plan.json vc/report.json ga/plan.json estimate/report.json validate/validation.json)
if [ "$mode" = update ]; then
  for f in "${files[@]}"; do
    mkdir -p "$here/$(dirname "$f")"
    cp "$work/$f" "$here/$f"
  done
  echo "golden outputs rewritten: review them with git diff tests/golden"
  exit 0
fi
failed=0
for f in "${files[@]}"; do
  if cmp -s "$work/$f" "$here/$f"; then
    echo "ok $f"
  else
    echo "FAIL $f differs from the golden output (tests/golden/golden.sh update rewrites it on purpose)"
    diff <(python3 -m json.tool "$here/$f" 2>/dev/null) <(python3 -m json.tool "$work/$f") | head -20
    failed=$((failed + 1))
  fi
done
exit $((failed > 0))
