# Sourced by the CLI test scripts: a scratch directory removed on exit, and the check counters.
#   ok NAME / fail NAME       record a result
#   check NAME CONDITION      evaluates CONDITION (a shell expression) and records it
#   finish LABEL              prints the counts; the script's status is 0 only if none failed
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
ok() { echo "ok $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1"; failed=$((failed + 1)); }
check() { if eval "$2"; then ok "$1"; else fail "$1"; fi; }
finish() {
  echo "${1:+$1: }$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
