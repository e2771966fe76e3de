#!/usr/bin/env bash
# Runs setup and every benchmark in turn; outputs go to stdout and results/*.json.
set -uo pipefail
cd "$(dirname "$0")"
./setup.sh || exit 1
rc=0
for s in outline_time.sh command_time.sh outline_size.sh daemon_memory.sh flow.sh; do
  echo; echo "== $s"; ./"$s" || rc=1
done
exit $rc
