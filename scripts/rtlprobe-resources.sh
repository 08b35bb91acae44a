#!/usr/bin/env bash
# What `hlsinstr rtl-probe`'s profiling IP costs, estimated by yosys's Xilinx synthesis of
# verilog/rtlprobe/ (out of context, no I/O buffers), for N probed instances of depth D, and the
# resource model fitted to it (docs/rtl-probe.md#cost):
#   LUT = C_axi + C_pc + C_decode*log2(N) + sum_i (C_L1 + C_L2*D_i)   (and the same form for FF).
# -nosrl: the queues are registers (shreg_extract = "no", which Vivado honours and yosys does
# not); as SRL16Es they would be 64 LUTs each. -flatten: one netlist, counted once (Vivado
# flattens too; counting yosys's per-module sections and its hierarchy total as well counted
# every cell twice, which made the figures of the first version about twice too high).
# CHPARAM="-set OFFLOAD 1" measures the IP with its DRAM offload (the difference is its fixed part).
# Prints one line per configuration, then the fitted constants. Usage: scripts/rtlprobe-resources.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
family="${FAMILY:-xcup}"
command -v yosys >/dev/null || { echo "missing yosys: install it (apt-get install yosys) and run again" >&2; exit 1; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
configs="${CONFIGS:-1:4 2:4 4:4 8:4 16:4 32:4 4:2 4:8 4:16 16:8}"
echo "# yosys $(yosys -V | awk '{print $2}'), synth_xilinx -family $family, out of context"
echo "N D LUT FF CARRY BRAM"
for c in $configs; do
  n="${c%%:*}"; d="${c##*:}"
  depths=$(printf "%d'h" $((8 * n)); for _ in $(seq "$n"); do printf '%02x' "$d"; done)
  yosys -q -p "read_verilog $root/verilog/rtlprobe/hlsinstr_rtlprobe_queue.v $root/verilog/rtlprobe/hlsinstr_rtlprobe_mux.v $root/verilog/rtlprobe/hlsinstr_rtlprobe_offload.v $root/verilog/rtlprobe/hlsinstr_rtlprobe.v; chparam -set N $n -set DEPTHS $depths ${CHPARAM:-} hlsinstr_rtlprobe; synth_xilinx -flatten -top hlsinstr_rtlprobe -family $family -noiopad -noclkbuf -nosrl ${WIDEMUX:+-widemux $WIDEMUX}; tee -q -o $tmp/stat.txt stat" >"$tmp/log.txt" 2>&1 \
    || { cat "$tmp/log.txt" >&2; exit 1; }
  # One module after -flatten: refuse a stat with several sections rather than sum them.
  [ "$(grep -c '^=== ' "$tmp/stat.txt")" = 1 ] || { echo "yosys left a hierarchy:" >&2; cat "$tmp/stat.txt" >&2; exit 1; }
  awk -v n="$n" -v d="$d" '
    $1 ~ /^(LUT[1-6]|INV)$/ { lut += $2 }
    $1 ~ /^FD[RSCP]E$/      { ff += $2 }
    $1 ~ /^CARRY[48]$/      { carry += $2 }
    $1 ~ /^RAMB/            { bram += $2 }
    END { printf "%d %d %d %d %d %d\n", n, d, lut, ff, carry, bram }' "$tmp/stat.txt"
done | tee "$tmp/rows.txt"
# Least squares on LUT (and FF) = a + b*log2(N) + N*c1 + N*D*c2.
python3 - "$tmp/rows.txt" <<'PY'
import sys, math
rows = [list(map(int, l.split())) for l in open(sys.argv[1]) if l[0].isdigit()]
def fit(col):
    X = [[1.0, math.log2(r[0]), r[0], r[0] * r[1]] for r in rows]
    y = [float(r[col]) for r in rows]
    n = 4
    A = [[sum(X[k][i] * X[k][j] for k in range(len(X))) for j in range(n)] for i in range(n)]
    b = [sum(X[k][i] * y[k] for k in range(len(X))) for i in range(n)]
    for i in range(n):  # Gauss-Jordan
        p = max(range(i, n), key=lambda r: abs(A[r][i])); A[i], A[p] = A[p], A[i]; b[i], b[p] = b[p], b[i]
        for r in range(n):
            if r != i:
                f = A[r][i] / A[i][i]
                A[r] = [A[r][j] - f * A[i][j] for j in range(n)]; b[r] -= f * b[i]
    coef = [b[i] / A[i][i] for i in range(n)]
    worst = max(abs(sum(c * x for c, x in zip(coef, X[k])) - y[k]) for k in range(len(X)))
    return coef, worst
for name, col in (("LUT", 2), ("FF", 3)):
    (c0, cd, c1, c2), worst = fit(col)
    print(f"{name}: C_axi+C_pc = {c0:.1f}, C_decode = {cd:.1f}, C_1 = {c1:.1f}, C_2 = {c2:.2f} (worst residual {worst:.1f})")
    print(f"{name} per probed instance at D=4: {c1 + 4 * c2:.1f}")
PY
