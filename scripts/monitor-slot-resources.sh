#!/usr/bin/env bash
# What the in-FPGA monitor costs per probe, estimated: yosys's Xilinx synthesis of the RTL
# equivalent of the generated monitor (verilog/estimate/hlsinstr_monitor_shared.v with its front
# and observe modules, hand-written: the structure of hlsinstr::hw::front/accumulate, see
# docs/in-fpga.md) for N probes, and LUT (and FF) = C_fixed + C_probe * N fitted to it by least
# squares. Vitis's own result for hw/monitor.h needs Vitis, which is not here.
# Not flattened: the "design hierarchy" total counts each submodule once per instance (with
# -flatten abc merged the holders' enables into the event multiplexer and the count went up 2x
# from N = 8 on; Vivado keeps such a small hierarchy too unless told to flatten).
# -widemux 5: multiplexers of 5 inputs or more use MUXF7/MUXF8 (16:1 in 4 LUTs), as Vivado
# maps them; without it yosys builds the 97-bit event multiplexer from LUTs alone and the cost
# per probe rises from N = 32 on (110 LUT per probe from 16 to 32 probes).
# Usage: scripts/monitor-slot-resources.sh   (NS="1 2 4" LONGESTS="0" to narrow the sweep)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
family="${FAMILY:-xcup}"
command -v yosys >/dev/null || { echo "missing yosys: install it (apt-get install yosys) and run again" >&2; exit 1; }
command -v python3 >/dev/null || { echo "missing python3: install it and run again" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
src="$root/verilog/estimate"
echo "# yosys $(yosys -V | awk '{print $2}'), synth_xilinx -family $family -widemux 5, out of context"
echo "LONGEST N LUT FF CARRY BRAM18"
for longest in ${LONGESTS:-0 1}; do
  for n in ${NS:-1 2 4 8 16 32 64}; do
    yosys -q -p "read_verilog $src/hlsinstr_monitor_shared.v $src/hlsinstr_monitor_front.v $src/hlsinstr_monitor_observe.v; chparam -set N $n -set LONGEST $longest hlsinstr_monitor_shared; synth_xilinx -top hlsinstr_monitor_shared -family $family -noiopad -noclkbuf -widemux 5; tee -q -o $tmp/stat.txt stat" >"$tmp/log.txt" 2>&1 \
      || { cat "$tmp/log.txt" >&2; exit 1; }
    grep -q '=== design hierarchy ===' "$tmp/stat.txt" || { echo "yosys printed no hierarchy total:" >&2; cat "$tmp/stat.txt" >&2; exit 1; }
    awk -v n="$n" -v longest="$longest" '
      /=== design hierarchy ===/ { total = 1; next }
      !total                   { next }
      $1 ~ /^(LUT[1-6]|INV)$/  { lut += $2 }
      $1 ~ /^FD[RSCP]E$/       { ff += $2 }
      $1 ~ /^CARRY[48]$/       { carry += $2 }
      $1 ~ /^RAMB18/           { bram += $2 }
      $1 ~ /^RAMB36/           { bram += 2 * $2 }
      END { printf "%d %d %d %d %d %d\n", longest, n, lut, ff, carry, bram }' "$tmp/stat.txt"
  done
done | tee "$tmp/rows.txt"
python3 - "$tmp/rows.txt" <<'PY'
import sys
rows = [list(map(int, l.split())) for l in open(sys.argv[1]) if l[0].isdigit()]
for longest in sorted({r[0] for r in rows}):
    rs = [r for r in rows if r[0] == longest]
    for name, col in (("LUT", 2), ("FF", 3)):
        xs = [r[1] for r in rs]; ys = [r[col] for r in rs]
        mx = sum(xs) / len(xs); my = sum(ys) / len(ys)
        b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
        a = my - b * mx
        worst = max(abs(a + b * x - y) for x, y in zip(xs, ys))
        print(f"LONGEST={longest} {name} = {a:.0f} + {b:.1f} * N (worst residual {worst:.0f})")
PY
