#!/usr/bin/env bash
# Runs setup and every benchmark in turn; outputs go to stdout and results/*.json.
set -uo pipefail
cd "$(dirname "$0")"
./setup.sh || exit 1
rc=0
for s in outline_time.sh command_time.sh outline_size.sh daemon_memory.sh flow.sh replay.sh; do
  echo; echo "== $s"; ./"$s" || rc=1
done
# issue 32's small page: the demo shop's product page, the tools taking turns
echo; echo "== command_time.sh (shop product page, interleaved)"
SHOP=1 INTERLEAVE=1 RESULT=command_time-shop.json ./command_time.sh || rc=1
exit $rc
