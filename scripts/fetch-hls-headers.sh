#!/usr/bin/env bash
# Fetch Xilinx's open C-simulation headers (ap_int.h, ap_fixed.h, hls_stream.h, ...) that ship
# inside the PyPI package hls4ml 1.3.0, into .cache/hls-headers/ (never committed).
# Prints the include directory. With XILINX_HLS set, prints $XILINX_HLS/include instead.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if [ -n "${XILINX_HLS:-}" ] && [ -f "$XILINX_HLS/include/ap_int.h" ]; then
  echo "$XILINX_HLS/include"
  exit 0
fi
dest="$root/.cache/hls-headers"
if [ ! -f "$dest/ap_int.h" ]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  python3 -m pip download --quiet --no-deps hls4ml==1.3.0 -d "$tmp" >&2
  python3 - "$tmp" "$dest" <<'PY'
import sys, zipfile, glob, os
tmp, dest = sys.argv[1], sys.argv[2]
wheel = glob.glob(os.path.join(tmp, "hls4ml-1.3.0-*.whl"))[0]
prefix = "hls4ml/templates/vivado/ap_types/"
staging = dest + ".partial"
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        if name.startswith(prefix) and not name.endswith("/"):
            out = os.path.join(staging, name[len(prefix):])
            os.makedirs(os.path.dirname(out), exist_ok=True)
            with open(out, "wb") as f:
                f.write(z.read(name))
if os.path.isdir(dest):
    import shutil; shutil.rmtree(dest)
os.rename(staging, dest)
PY
fi
echo "$dest"
