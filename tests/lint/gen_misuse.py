#!/usr/bin/env python3
"""tests/lint/gen_misuse.py HEADER_DIR OUT.c — the library-misuse test,
generated from the public headers (issue 31, class 8).

Every HM_EXPORT function of include/harmonia/*.h is called once for each of
its pointer and communicator arguments, that argument made invalid (NULL,
MPI_COMM_NULL) and the others valid (tests/lint/misuse_fixtures.h: a real
handle, a default parameter struct, a buffer). Each function that takes a
communicator is also called before MPI_Init and after MPI_Finalize. The
program checks that no call crashes (the sanitizer build runs it) and that
every HM_E* status comes back with a sentence. A case whose other arguments
have no valid fixture is counted as not covered and listed, so the coverage
is stated, never assumed."""
import re
import sys
from pathlib import Path

# Functions not called, and why (each a reason a reviewer can check).
SKIP = {
    "hm_error_set": "sets the last error from a printf format: NULL is the caller's bug, as for printf",
    "hm_figure_draw": "spawns gnuplot; its inputs are checked by test_cli_* with real files",
}

SCALARS = {
    "int": "1", "unsigned": "1u", "long": "1", "long long": "1", "size_t": "4",
    "double": "1e-3", "uint64_t": "1", "int64_t": "1", "uint32_t": "1", "off_t": "1",
    "unsigned long": "1", "uint8_t": "1", "bool": "1",
}


def strip_comments(text):
    return re.sub(r"/\*.*?\*/", " ", text, flags=re.S)


def declarations(header_dir):
    """(header, return type, name, [(type, name)]) of every HM_EXPORT."""
    out = []
    for h in sorted(Path(header_dir).glob("*.h")):
        text = strip_comments(h.read_text())
        text = re.sub(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)\s*", "", text)
        for m in re.finditer(r"HM_EXPORT\s+([^;{}]*?)\b(hm_\w+|MPIX_\w+)\s*\(([^;{}]*?)\)\s*;", text,
                             flags=re.S):
            ret = " ".join(m.group(1).split())
            args = []
            raw = " ".join(m.group(3).split())
            if raw and raw != "void":
                for a in split_args(raw):
                    if a != "...":  # a variadic tail: the format's arguments
                        args.append(parse_arg(a))
            out.append((h.name, ret, m.group(2), args))
    return out


def split_args(raw):
    depth, cur, parts = 0, "", []
    for ch in raw:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    parts.append(cur.strip())
    return parts


def parse_arg(a):
    if "(" in a:  # a function pointer written out
        return ("FNPTR", re.search(r"\(\s*\*\s*(\w+)", a).group(1))
    m = re.match(r"(.*?)(\w+)\s*(\[\s*\w*\s*\])?$", a)
    typ = " ".join(m.group(1).replace("*", " * ").split())
    if m.group(3):
        typ += " *"
    return (typ, m.group(2))


def base_type(typ):
    """'const hm_x_t * const *' -> ('hm_x_t', pointer depth)."""
    depth = typ.count("*")
    words = [w for w in typ.replace("*", " ").split() if w != "const"]
    return " ".join(words), depth


class Fixtures:
    """Valid values by type, from misuse_fixtures.h and the headers."""

    def __init__(self, fixture_header, decls, opaque, fnptr_types):
        text = Path(fixture_header).read_text()
        self.handles = set(re.findall(r"\bfx_(\w+_t)\s*\(void\)", text))
        # Handles one rank cannot make (HM_MISUSE_TWO_RANKS in the header):
        # their cases run only when the test has two ranks.
        m = re.search(r'#define\s+HM_MISUSE_TWO_RANKS\s+"([^"]*)"', text)
        self.two_ranks = set(m.group(1).split()) if m else set()
        self.defaults = {}
        for _, ret, name, args in decls:
            if ret == "void" and name.endswith("_default") and len(args) == 1:
                bt, d = base_type(args[0][0])
                if d == 1:
                    self.defaults[bt] = name
        self.opaque = opaque
        self.fnptr_types = fnptr_types

    def value(self, typ, name, args, i):
        """A C expression of a valid value, or None when there is none."""
        bt, depth = base_type(typ)
        if typ == "FNPTR" or bt in self.fnptr_types:
            return "NULL"  # callbacks are optional where the header allows; see expectations
        if depth == 0:
            if bt == "MPI_Comm":
                return "MPI_COMM_WORLD"
            if bt in SCALARS:
                return size_value(name, args, i) if bt == "size_t" else SCALARS[bt]
            if bt.endswith("_t") or bt.startswith("hm_") or bt.startswith("enum"):
                return "(%s){0}" % bt if not is_enum(bt) else "(%s)0" % bt
            return None
        if depth == 1 and bt == "char":
            if "const" in typ and name in FORMAT_PARAMS:
                # A format is a string literal (-Wformat-security); "x" is
                # what fx_string gives any other name.
                return '"x"'
            if "const" in typ:
                return "fx_string(\"%s\")" % name
            return "fx_chars"
        if depth == 1 and bt in self.opaque:
            return "fx_%s()" % bt if bt in self.handles else None
        if depth == 1 and bt in self.defaults:
            return "fx_defaulted_%s()" % bt
        if depth == 1 and bt == "MPI_Comm":
            return "&fx_comm_slot"
        if depth == 1:
            return "(%s)fx_scratch" % typ.replace(" *", "*")
        if depth == 2:
            return "(%s)fx_slot()" % typ.replace(" * *", "**").replace(" *", "*")
        return None


ENUMS = set()

# Parameters that are printf formats in the public headers.
FORMAT_PARAMS = {"fmt", "format"}


def is_enum(bt):
    return bt in ENUMS


def size_value(name, args, i):
    """A size that matches the buffer before it (fx_chars holds 4096)."""
    if i > 0 and base_type(args[i - 1][0]) == ("char", 1) and "const" not in args[i - 1][0]:
        return "sizeof fx_chars"
    return "4"


def invalid_value(typ):
    bt, depth = base_type(typ)
    if depth == 0 and bt == "MPI_Comm":
        return "MPI_COMM_NULL"
    if depth >= 1 or typ == "FNPTR":
        return "NULL"
    return None


def call(name, values):
    return "%s(%s)" % (name, ", ".join(values))


def ranks_needed(fx, values):
    """2 when a value is a handle only two ranks make, else 1."""
    return 2 if any(re.search(r"\bfx_%s\(\)" % h, v) for h in fx.two_ranks
                    for v in values if v) else 1


def emit_case(out, ret, name, args, values, what, expect, ranks=1):
    out.append("static void case_%d(void)\n{" % len(CASES))
    out.append("    hm_misuse_begin(\"%s\", \"%s\");" % (name, what))
    if ret == "int":
        out.append("    int rc = %s;" % call(name, values))
        out.append("    hm_misuse_end_status(rc, %s);" % expect)
    elif ret == "void":
        out.append("    %s;" % call(name, values))
    else:
        out.append("    (void)%s;" % call(name, values))
    out.append("}\n")
    CASES.append((name, what, expect, ranks))


CASES = []


def main():
    header_dir, fixture_header, out_path = sys.argv[1], sys.argv[2], sys.argv[3]
    decls = declarations(header_dir)
    alltext = "".join(strip_comments(p.read_text()) for p in Path(header_dir).glob("*.h"))
    opaque = set(re.findall(r"typedef\s+struct\s+\w+\s+(\w+_t)\s*;", alltext))
    fnptr_types = set(re.findall(r"typedef\s+[\w\s\*]+\(\s*\*\s*(\w+)\s*\)", alltext))
    ENUMS.update(re.findall(r"typedef\s+enum\s*\w*\s*\{[^}]*\}\s*(\w+)\s*;", alltext))
    fx = Fixtures(fixture_header, decls, opaque, fnptr_types)
    body, uncovered, lifetime = [], [], []
    for header, ret, name, args in decls:
        if name in SKIP or name.startswith("MPIX_"):
            continue
        valid = [fx.value(t, n, args, i) for i, (t, n) in enumerate(args)]
        for i, (t, n) in enumerate(args):
            bad = invalid_value(t)
            if bad is None:
                continue
            if any(v is None for j, v in enumerate(valid) if j != i):
                missing = sorted({base_type(args[j][0])[0] for j, v in enumerate(valid)
                                  if v is None and j != i})
                uncovered.append("%s(%s = %s): no valid %s" % (name, n, bad, ", ".join(missing)))
                continue
            values = list(valid)
            values[i] = bad
            emit_case(body, ret, name, args, values, "%s = %s" % (n, bad), "HM_MISUSE_ANY",
                      ranks_needed(fx, values))
        if any(base_type(t) == ("MPI_Comm", 0) for t, _ in args):
            values = [invalid_value(t) if base_type(t) != ("MPI_Comm", 0) and invalid_value(t)
                      else ("MPI_COMM_WORLD" if base_type(t) == ("MPI_Comm", 0) else v)
                      for (t, _), v in zip(args, valid)]
            if any(v is None for v in values):
                uncovered.append("%s outside MPI: an argument has no value" % name)
                continue
            lifetime.append(len(CASES))
            emit_case(body, ret, name, args, values, "outside MPI's lifetime", "HM_MISUSE_FAIL")
    out = ["/* Generated by tests/lint/gen_misuse.py from include/harmonia: do not edit. */"]
    out += ["#include <harmonia/%s>" % h.name for h in sorted(Path(header_dir).glob("*.h"))]
    out.append("\n#include \"misuse_fixtures.h\"\n")
    for bt, fn in sorted(fx.defaults.items()):
        out.append("static __attribute__((unused)) %s *fx_defaulted_%s(void)\n{\n    static %s v;\n    %s(&v);\n"
                   "    return &v;\n}\n" % (bt, bt, bt, fn))
    out += body
    out.append("const hm_misuse_case_t hm_misuse_cases[] = {")
    for k in range(len(CASES)):
        out.append("    {case_%d, %d, %d}," % (k, 1 if k in lifetime else 0, CASES[k][3]))
    out.append("};")
    out.append("const size_t hm_misuse_ncases = %d;" % len(CASES))
    out.append("const char *const hm_misuse_uncovered[] = {")
    for u in uncovered:
        out.append("    \"%s\"," % u.replace("\"", "\\\""))
    out.append("    NULL};")
    Path(out_path).write_text("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
