#!/usr/bin/env python3
"""hlsinstr: the textual pre-pass that lets Intel FPGA OpenCL C compile as C++ for the CPU
emulation (with hlsinstr_emu_prelude.h forced in front). What macros cannot do:

  channel T name __attribute__((depth(D)));      -> static hlsinstr_emu::Channel<T>& name = ...
  channel T name[N] __attribute__((depth(D)));   -> static hlsinstr_emu::ChannelArray<T, N>& ...
  (T2)(a, b) / (T4)(a, b, c, d) vector literals  -> T2(a, b) / T4(a, b, c, d) (N = 2, 3, 4, 8, 16)
  convert_T[N][_sat][_rte|_rtz|_rtp|_rtn](x)     -> hlsinstr_emu::ocl::convert<TN, sat, rounding>(x)
  as_T[N](x)                                      -> hlsinstr_emu::ocl::as_type<TN>(x)
  v.xy / v.s01 (several components)               -> v.template swz<0, 1>(), assigned: swz_ref<0, 1>()
  every kernel definition                         -> unchanged, followed (on its closing brace's
                                                     line) by a registration: name, autorun,
                                                     num_compute_units, parameter types, and
                                                     each parameter's size and pointer-ness
                                                     (for clSetKernelArg)

Every replacement stays on the lines it replaces, so compiler messages keep the .cl line
numbers (a `#line` directive names the original file). Files included with #include "..." that
are found (beside the including file, then -I directories) are converted too, into the output
directory under the same relative name, so their channels and kernels are seen; the output
directory must come first on the C++ include path.

Usage: ocl2cpp.py [-I DIR]... -o OUTDIR FILE.cl    (writes OUTDIR/FILE.cl.cpp)
Exit codes: 0 done, 1 a file could not be read or a construct is not supported (with
file:line: message).
"""

import argparse
import os
import re
import sys

ATTR = r"__attribute__\s*\(\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\)"


def blank_comments_and_strings(text):
    """The same text with comments and string/char literals replaced by spaces (newlines
    kept), so offsets and line numbers match the original."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            for k in range(i + 1, min(j, n)):
                out[k] = " "
            i = j + 1
        else:
            i += 1
    return "".join(out)


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def same_lines(original, replacement):
    """Pads `replacement` with the newlines `original` had, so line numbers stay."""
    return replacement + "\n" * (original.count("\n") - replacement.count("\n"))


def depth_of(attrs):
    m = re.search(r"\bdepth\s*\(\s*([^()]+?)\s*\)", attrs)
    return m.group(1) if m else "0"


CHANNEL = re.compile(
    r"(?m)^[ \t]*channel\s+(?P<type>[A-Za-z_][\w \t]*?)\s+(?P<name>[A-Za-z_]\w*)\s*"
    r"(?P<dims>(?:\[[^\]]+\]\s*)*)(?P<attrs>(?:" + ATTR + r"\s*)*);"
)
VECTOR_LITERAL = re.compile(r"\(\s*((?:u?(?:char|short|int|long)|float|double)(?:2|3|4|8|16))\s*\)\s*\(")
SCALAR = r"(?:u?(?:char|short|int|long)|float|double)"
CONVERT = re.compile(r"\bconvert_(" + SCALAR + r"(?:2|3|4|8|16)?)(_sat)?(?:_(rte|rtz|rtp|rtn))?\s*\(")
AS_TYPE = re.compile(r"\bas_(" + SCALAR + r"(?:2|3|4|8|16)?)\s*\(")
# `.xy`, `.zyx`, `.s01`: several components. `.sNN` with lower-case hex letters is left alone
# (`.seed`, `.sad` are struct fields far more often than swizzles).
SWIZZLE = re.compile(r"\.([xyzw]{2,4}|s[0-9A-F]{2,16})\b(?!\s*\()")
ASSIGNED = re.compile(r"\s*(?:[-+*/]?=)(?!=)")
ROUNDING = {None: "Default", "rte": "Rte", "rtz": "Rtz", "rtp": "Rtp", "rtn": "Rtn"}
KERNEL_HEAD = re.compile(r"\bvoid\s+(?P<name>[A-Za-z_]\w*)\s*\((?P<params>[^()]*)\)\s*\{")


def matching_brace(blank, open_at):
    depth = 0
    for i in range(open_at, len(blank)):
        if blank[i] == "{":
            depth += 1
        elif blank[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    return -1


def param_types(params, where):
    params = params.strip()
    if params in ("", "void"):
        return []
    types = []
    for p in params.split(","):
        p = re.sub(ATTR, " ", p).strip()
        m = re.match(r"(?s)(.*?[\s*&])([A-Za-z_]\w*)\s*$", p)
        if not m or not m.group(1).strip():
            raise ValueError(f"{where}: cannot read the kernel parameter `{p}` (arrays and unnamed parameters are not supported)")
        types.append(value_type(" ".join(m.group(1).split())))
    return types


def value_type(t):
    """The parameter's type without its top-level const/volatile (`const int n`, `float *const
    p`): the argument is a copy, and the registration stores it in a variable of that type."""
    star = t.rfind("*")
    head, tail = (t, "") if star < 0 else (t[: star + 1], t[star + 1:])
    if star < 0:
        head = re.sub(r"\b(const|volatile)\b", " ", head)
    else:
        tail = re.sub(r"\b(const|volatile)\b", " ", tail)
    return " ".join((head + tail).split())


def convert(text, path):
    blank = blank_comments_and_strings(text)
    edits = []  # (start, end, replacement)

    for m in CHANNEL.finditer(blank):
        t, name, dims = " ".join(m.group("type").split()), m.group("name"), m.group("dims")
        depth = depth_of(m.group("attrs"))
        sizes = re.findall(r"\[([^\]]+)\]", dims)
        if len(sizes) > 1:
            raise ValueError(f"{path}:{line_of(text, m.start())}: channel {name}: only one-dimensional channel arrays are supported")
        if sizes:
            cls = f"hlsinstr_emu::ChannelArray<{t}, {sizes[0].strip()}>"
        else:
            cls = f"hlsinstr_emu::Channel<{t}>"
        rep = f'static {cls}& {name} = *new {cls}("{name}", {depth});'
        # Keep the leading indentation; replace from the keyword on.
        start = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
        edits.append((start, m.end(), same_lines(text[start:m.end()], rep)))

    for m in VECTOR_LITERAL.finditer(blank):
        edits.append((m.start(), m.end(), m.group(1) + "("))

    for m in CONVERT.finditer(blank):
        sat = "true" if m.group(2) else "false"
        rounding = ROUNDING[m.group(3)]
        edits.append((m.start(), m.end(), f"hlsinstr_emu::ocl::convert<{m.group(1)}, {sat}, hlsinstr_emu::ocl::Round::{rounding}>("))

    for m in SWIZZLE.finditer(blank):
        name = m.group(1)
        if name[0] == "s":
            idx = [str(int(c, 16)) for c in name[1:]]
        else:
            idx = [str("xyzw".index(c)) for c in name]
        call = "swz_ref" if ASSIGNED.match(blank, m.end()) else "swz"
        edits.append((m.start(), m.end(), f".template {call}<{', '.join(idx)}>()"))

    for m in AS_TYPE.finditer(blank):
        edits.append((m.start(), m.end(), f"hlsinstr_emu::ocl::as_type<{m.group(1)}>("))

    for m in KERNEL_HEAD.finditer(blank):
        # The declaration's prefix: back to the previous ; } or preprocessor line.
        start = m.start()
        k = start
        while k > 0:
            c = blank[k - 1]
            if c in ";}":
                break
            if c == "\n":
                line_start = blank.rfind("\n", 0, k - 1) + 1
                if blank[line_start:k - 1].lstrip().startswith("#"):
                    break
            k -= 1
        prefix = blank[k:start]
        if not re.search(r"\b(__kernel|kernel)\b", prefix):
            continue
        name = m.group("name")
        where = f"{path}:{line_of(text, start)}"
        autorun = "true" if re.search(r"\bautorun\b", prefix) else "false"
        cu = re.search(r"\bnum_compute_units\s*\(\s*([^(),]+)", prefix)
        cu = cu.group(1).strip() if cu else "1"
        types = param_types(m.group("params"), where)
        close = matching_brace(blank, m.end() - 1)
        if close < 0:
            raise ValueError(f"{where}: kernel {name}: no closing brace")
        args = ", ".join(f'a[{i}].get<{t}>("{name}", {i})' for i, t in enumerate(types))
        unused = "" if types else "(void)a; "
        local = ["true" if re.search(r"\b(__local|local)\b", t) else "false" for t in types]
        info = ", ".join(f"hlsinstr_emu::detail::param<{t}>({l})" for t, l in zip(types, local))
        reg = (
            f" static hlsinstr_emu::detail::Registrar hlsinstr_emu_reg_{name}(\"{name}\", {autorun}, {cu}, "
            f"{len(types)}, [](const hlsinstr_emu::Arg* a) {{ {unused}{name}({args}); }}, {{{info}}});"
        )
        edits.append((close + 1, close + 1, reg))

    edits.sort(key=lambda e: (e[0], e[1]))
    out, pos = [], 0
    for s, e, r in edits:
        if s < pos:
            raise ValueError(f"{path}:{line_of(text, s)}: overlapping rewrites (a bug in ocl2cpp.py)")
        out.append(text[pos:s])
        out.append(r)
        pos = e
    out.append(text[pos:])
    return "".join(out)


def includes(text):
    blank = blank_comments_and_strings(text)
    for m in re.finditer(r'(?m)^[ \t]*#[ \t]*include[ \t]*"', blank):
        end = text.find('"', m.end())
        if end > 0:
            yield text[m.end():end]


def process(path, rel, outdir, incdirs, done):
    if rel in done:
        return
    done.add(rel)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    converted = convert(text, path)
    target = os.path.join(outdir, rel)
    os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
    with open(target, "w", encoding="utf-8") as f:
        f.write(f'#line 1 "{os.path.abspath(path)}"\n' + converted)
    for inc in includes(text):
        for d in [os.path.dirname(path)] + incdirs:
            cand = os.path.join(d, inc)
            if os.path.isfile(cand):
                sub = os.path.normpath(os.path.join(os.path.dirname(rel), inc)) if d == os.path.dirname(path) else inc
                process(cand, sub, outdir, incdirs, done)
                break


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-I", dest="incdirs", action="append", default=[])
    ap.add_argument("-o", dest="outdir", required=True)
    ap.add_argument("file")
    a = ap.parse_args()
    try:
        base = os.path.basename(a.file)
        process(a.file, base, a.outdir, a.incdirs, set())
        os.replace(os.path.join(a.outdir, base), os.path.join(a.outdir, base + ".cpp"))
    except (OSError, ValueError) as e:
        print(f"ocl2cpp: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
