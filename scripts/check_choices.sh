#!/usr/bin/env bash
# Choices are enums parsed at the edge (hw/common/choice.h): no library code compares a string
# with a literal, and no library names a command-line flag. The importers of external formats
# (mapper/workload/import) dispatch on the format's own operator and column names, which are
# not choices of ours, and are left out. Usage: scripts/check_choices.sh [repository root]
set -u
cd "${1:-.}"
libs=(hw noc chiplets mapper traces sim/system sim/sweep)
status=0
compares=$(grep -rnE '[!=]=[[:space:]]*"|"[[:space:]]*[!=]=' --include='*.h' --include='*.cpp' "${libs[@]}" |
           grep -v '^mapper/workload/import/')
if [ -n "$compares" ]; then
  echo "string comparisons in library code (parse the choice once into its enum):"
  echo "$compares"
  status=1
fi
flags=$(grep -rnE '"[^"]*--[a-z][a-z-]*' --include='*.h' --include='*.cpp' "${libs[@]}")
if [ -n "$flags" ]; then
  echo "command-line flags named in library code (throw RequestError naming the field):"
  echo "$flags"
  status=1
fi
[ $status -eq 0 ] && echo "choices: no string comparisons, no flag names in the libraries"
exit $status
