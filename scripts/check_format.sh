#!/usr/bin/env bash
# The tree is formatted by .clang-format: lists every tracked C++ file that clang-format would
# change and exits 1 if there is one. scripts/check_format.sh --fix formats them in place.
# Usage: scripts/check_format.sh [--fix] [repository root]
set -u
fix=0
if [ "${1:-}" = "--fix" ]; then fix=1; shift; fi
cd "${1:-.}"
command -v clang-format > /dev/null || { echo "clang-format not found (scripts/install-deps.sh installs it)"; exit 1; }
mapfile -t files < <(git ls-files '*.h' '*.cpp')
if [ $fix -eq 1 ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run -Werror "$f" > /dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "not formatted (scripts/check_format.sh --fix):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "format: ${#files[@]} files as .clang-format says"
