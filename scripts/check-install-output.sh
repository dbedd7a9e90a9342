#!/usr/bin/env bash
# What `npm install` prints in this repository on an older Node (the machine's own, e.g. Node 20; CI passes it as $1):
# no EBADENGINE warning (there were 88 blocks, 440 of 461 lines, before .npmrc's loglevel=error), and the one line of
# scripts/install-notice.mjs that says why and that the install goes on. `npm install --dry-run` resolves the same tree
# and runs the same engine checks without changing node_modules.
set -euo pipefail
cd "$(dirname "$0")/.."
old_node=${1:?usage: scripts/check-install-output.sh /path/to/an/older/node}
old_bin=$(dirname "$(readlink -f "$old_node")")
log=$(mktemp -t toolwright-install.XXXXXX)
trap 'rm -f "$log"' EXIT
PATH="$old_bin:$PATH" npm install --dry-run --no-audit --no-fund >"$log" 2>&1
warnings=$(grep -c EBADENGINE "$log" || true)
if [ "$warnings" -ne 0 ]; then
  echo "npm install on Node $("$old_node" --version) printed $warnings EBADENGINE lines:" >&2
  head -n 20 "$log" >&2
  exit 1
fi
notice=$("$old_node" scripts/install-notice.mjs 2>&1)
if [ "$(printf '%s\n' "$notice" | wc -l)" -ne 1 ] || [[ "$notice" != *"The install and the build go on and work"* ]]; then
  echo "scripts/install-notice.mjs on Node $("$old_node" --version) did not print its one line: '$notice'" >&2
  exit 1
fi
if [ -n "$(node scripts/install-notice.mjs 2>&1)" ]; then
  echo "scripts/install-notice.mjs printed something on Node $(node --version), which the tools support" >&2
  exit 1
fi
echo "npm install on Node $("$old_node" --version): 0 EBADENGINE lines; one line instead: $notice"
