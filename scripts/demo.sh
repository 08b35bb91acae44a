#!/usr/bin/env bash
# Rewrite an example with module and loop probes, build its testbench with g++ against the open
# Xilinx C-simulation headers, run it, and summarize the event log per probe. No vendor tool.
#   scripts/demo.sh [example] [probe kinds]      e.g. scripts/demo.sh quicksort modules,loops,timestamps,seq,maxi
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
name="${1:-quicksort}"
probes="${2:-modules,loops}"
src="$root/examples/$name"
[ -f "$src/hls_config.cfg" ] || { echo "no example $name (see examples/)" >&2; exit 2; }
hls="$("$root/scripts/fetch-hls-headers.sh")"
# $HLSINSTR names a built binary (the docs test sets it); else build the release one.
if [ -n "${HLSINSTR:-}" ]; then
  hlsinstr="$HLSINSTR"
else
  cargo build --quiet --release --manifest-path "$root/Cargo.toml"
  hlsinstr="$root/target/release/hlsinstr"
fi
cfg() { sed -n "s/^[[:space:]]*$1[[:space:]]*=[[:space:]]*//p" "$src/hls_config.cfg"; }
top="$(cfg syn.top)"
out="$root/hlsinstr-out/$name"
"$hlsinstr" rewrite "$src" --probes "$probes" --top "$top" --out "$out"
files=()
for f in $(cfg syn.file) $(cfg tb.file); do files+=("$out/$f"); done
g++ -std=c++14 -O1 -Wall -Wno-unknown-pragmas -Wno-unused-label -pthread -isystem "$hls" -I "$root/hls-lib/include" -I "$out" "${files[@]}" -o "$out/tb"
(cd "$src" && HLSINSTR_EVENTS_FORMAT=text HLSINSTR_EVENTS="$out/events.log" "$out/tb" | grep -v '^hlsinstr-expect')
echo "event log: $out/events.log"
python3 - "$out/hlsinstr-manifest.json" "$out/events.log" <<'PY'
import json, sys, collections
manifest = json.load(open(sys.argv[1]))
probes = {p["id"]: p for p in manifest["probes"]}
begins, trips = collections.Counter(), collections.Counter()
read, written = collections.Counter(), collections.Counter()
for line in open(sys.argv[2]):
    if line.startswith("#"):
        continue
    order, probe, event, thread, seq, ts, value = line.split()
    if event == "B":
        begins[int(probe)] += 1
    elif event == "R":
        read[int(probe)] += int(value)
    elif event == "W":
        written[int(probe)] += int(value)
    elif value != "-":
        trips[int(probe)] += int(value)
print(f"{'probe':>5}  {'kind':8}  {'where':34}  {'runs':>8}  {'trips':>10}  {'bytes read':>10}  {'written':>10}")
for pid in sorted(probes):
    p = probes[pid]
    where = f"{p['function']}" + (f"/{p['name']}" if p["kind"] != "function" else "") + f" :{p['line']}"
    t = str(trips[pid]) if p["kind"] == "loop" else ""
    runs = "" if p["kind"] == "port" else begins[pid]
    r, w = (read[pid], written[pid]) if p["kind"] == "port" else ("", "")
    print(f"{pid:>5}  {p['kind']:8}  {where:34}  {runs:>8}  {t:>10}  {r:>10}  {w:>10}")
PY
