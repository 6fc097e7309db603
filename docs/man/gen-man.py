#!/usr/bin/env python3
"""gen-man.py -- cubemu(1), cubemu-scenario(5) and cubemu-mpi(1) from one
source: what the built programs print (docs/man/cubemu_help.py) merged into
the hand-written prose of docs/man/*.in.

    gen-man.py --cubemu build/cubemu [--mpi build/cubemu-mpi]
               --version 0.1.0 --out build/man [--srcdir .] [--page cubemu.1]

Generated, never written by hand: the synopsis (the usage lines of
`cubemu --help`), every command's description (the same help) and options
(`cubemu CMD --help`, subcommands too), the exit status line, cubemu-mpi's
synopsis and options (its usage; the descriptions of the options it shares
with `cubemu run` are run's), and in cubemu-scenario(5) the [machine] keys,
groups and [expect] fields the program accepts (the "(valid: ...)" lists
of its errors), and the algorithms, methods, parameters with their ranges,
topologies, presets and trace formats of `cubemu list --json`. The prose
(docs/man/*.in, and the few key descriptions below) is by hand. An option,
key or environment variable that the prose does not describe is still
listed, with a warning on standard error.

The .in files are roff with lines "@NAME@" standing alone, replaced by
generated roff, and @VERSION@ and @DATE@ anywhere.
"""

import argparse
import datetime
import os
import re
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cubemu_help  # noqa: E402

WARNINGS = []


def warn(msg):
    WARNINGS.append(msg)
    print("gen-man.py: warning: " + msg, file=sys.stderr)


# --- roff -------------------------------------------------------------------

def esc(text):
    """Plain text as roff text: backslashes, hyphens as \\- (options and
    names are typed), non-ASCII as \\[uXXXX], a leading . or ' guarded."""
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\e")
        elif ch == "-":
            out.append("\\-")
        elif ord(ch) > 126:
            out.append("\\[u%04X]" % ord(ch))
        else:
            out.append(ch)
    s = "".join(out)
    return "\n".join(("\\&" + line) if line[:1] in (".", "'") else line
                     for line in s.split("\n"))


def quoted(text):
    """A macro argument in double quotes."""
    return '"' + esc(text).replace('"', "\\(dq") + '"'


def bold(text):
    return "\\fB" + esc(text) + "\\fR"


def italic(text):
    return "\\fI" + esc(text) + "\\fR"


def markup_usage(text):
    """A usage line: options and literal words bold, metavariables
    (upper case) italic, brackets and ellipses plain."""
    out = []
    for tok in re.findall(r"[^\s\[\]]+|\s+|[\[\]]", text):
        if tok.isspace() or tok in ("[", "]", "|") or set(tok) <= set(".|"):
            out.append(esc(tok))
        elif tok.startswith("-"):
            # --set or --set=VALUE
            if "=" in tok:
                opt, arg = tok.split("=", 1)
                out.append(bold(opt) + "=" + italic(arg))
            else:
                lead = re.match(r"^(-[^.]*?)(\.\.\.)?$", tok)
                out.append(bold(lead.group(1)) + esc(lead.group(2) or "")
                           if lead else bold(tok))
        elif tok[0].isupper():
            m = re.match(r"^(.*?)((?:\.\.\.)?)$", tok)
            out.append(italic(m.group(1)) + esc(m.group(2)))
        else:
            out.append(bold(tok))
    return "".join(out)


def option_tag(opt):
    names = []
    if opt.short:
        names.append(bold(opt.short))
    tag = bold(opt.long)
    if opt.arg:
        tag += "=" + italic(opt.arg)
    names.append(tag)
    return ", ".join(names)


def paragraphs(paras):
    """Paragraphs of help text: a paragraph with an indented line or a
    line continued by a backslash keeps its lines (no-fill), any other is
    filled."""
    out = []
    for p in paras:
        keep = any(l.startswith(" ") or l.endswith("\\") for l in p)
        out.append(".PP")
        if keep:
            out.append(".nf")
            out.extend(esc(l) for l in p)
            out.append(".fi")
        else:
            out.append(esc(" ".join(l.strip() for l in p)))
    return out


# --- cubemu(1) ---------------------------------------------------------------

def cubemu_synopsis(cu):
    out = []
    for s in cu.top.synopsis:
        out.append(".PP")
        out.append(markup_usage(s))
    return out


def cubemu_commands(cu):
    out = []
    for cmd in cu.top.commands:
        subs = cu.top.subcommands.get(cmd)
        out.append(".SS " + quoted(cmd))
        for s in cu.top.synopsis:
            if s == "cubemu " + cmd or s.startswith("cubemu " + cmd + " "):
                out.append(".PP")
                out.append(markup_usage(s))
        desc = cu.top.describe.get(cmd)
        if desc:
            out.append(".PP")
            out.append(esc(" ".join(desc)))
        else:
            warn("`cubemu --help` describes no command %s" % cmd)
        for words in ([[cmd, s] for s in subs] if subs else [[cmd]]):
            h = cu.help[tuple(words)]
            label = "cubemu " + " ".join(words)
            if subs:
                out.append(".PP")
                out.append(bold(label) + (" \\(em " + esc(h.summary) if h.summary else ""))
            opts = cu.command_options(words)
            if not h.ok:
                warn("`%s --help` failed; its options are taken from the "
                     "usage in `cubemu --help`" % label)
            if opts:
                out.append(".PP")
                out.append("Options of " + bold(label) + ":")
                for o in opts:
                    out.append(".TP")
                    out.append(option_tag(o))
                    if o.help:
                        out.append(esc(o.help))
                    elif o.long in ("--help",):
                        out.append("Show the command's options and exit.")
                    else:
                        out.append("See the description above.")
            out.extend(paragraphs(h.trailer))
    return out


def exit_status(cu):
    out = [".PP"]
    text = cu.top.exit_status
    m = re.match(r"Exit status:\s*(.*)$", text)
    if not m:
        warn("no 'Exit status:' line in `cubemu --help`")
        return out + ["See the description of each command."]
    items = re.split(r",\s*(?=\d+\s)", m.group(1).rstrip("."))
    out = []
    for it in items:
        code, _, what = it.partition(" ")
        out.append(".TP")
        out.append(".B " + esc(code))
        out.append(esc(what.strip()))
    return out


# --- cubemu-scenario(5) --------------------------------------------------------

MACHINE_KEY_PROSE = {
    "preset": "A machine preset: a file NAME.ini found where presets are "
              "(below). The scenario's other keys override the preset's; the "
              "report then names the machine \"PRESET (modified)\".",
    "name": "The machine's name in the report (text).",
    "description": "One line about the machine (text); cubemu list shows a "
                   "preset's.",
    "topology": "The interconnect (one of the topologies below).",
    "ports": "How many of a node's channels it may drive at once: all "
             "(the default), one, or an integer k.",
    "startup": "Ticks a message costs before its first element, for every "
               "channel class (default 0); a plain startup also overrides a "
               "preset's router.startup.",
    "element-time": "Ticks per element on a channel, every class (default 1).",
    "neighbour.startup": "The startup of the neighbour class alone.",
    "neighbour.element-time": "The element time of the neighbour class alone.",
    "router.startup": "The startup of the router class alone (refused on a "
                      "topology without one).",
    "router.element-time": "The element time of the router class alone.",
    "memory-path": "yes: every element of a message, every class, also "
                   "occupies the memory path of its source while it crosses "
                   "the first channel and of its destination while it "
                   "crosses the last (one path a node, one element at a "
                   "time, shared by what it sends and receives); no (the "
                   "default): channels and ports only.",
    "neighbour.memory-path": "memory-path for the neighbour class alone.",
    "router.memory-path": "memory-path for the router class alone (refused "
                          "on a topology without one).",
    "startup-holds-port": "yes (the default): a startup occupies the port; "
                          "no: it only delays the message.",
    "flop-time": "Ticks per floating-point operation of local work (default 0).",
    "tick-seconds": "Seconds per tick, e.g. 1e-7; reports then give seconds "
                    "too. Needed by table kernels.",
    "dimensions": "cube: n, for 2^n nodes (1..26).",
    "shape": "mesh: the sides S_{k-1}xS_{k-2}x...xS_0, each at least 2 "
             "(at most 32 axes and 2^26 nodes).",
    "wrap": "mesh: yes for a torus, no (the default) for a mesh.",
    "processors": "complete: P, the number of nodes (2..2^26).",
    "model": "engine (the default): channels, ports and prices as above; "
             "loggp: LogGP as LogGOPSim implements it, on the complete "
             "graph, for schedule replays, with a tick of 1e-9 s.",
    "loggp.L": "model = loggp: the latency in ns (holds nothing).",
    "loggp.o": "model = loggp: the overhead in ns at each end (holds the CPU).",
    "loggp.g": "model = loggp: the gap in ns between two injections, or two "
               "receptions, of a NIC.",
    "loggp.G": "model = loggp: the gap in ns per byte after the first.",
    "loggp.O": "model = loggp: the overhead in ns per byte after the first.",
    "loggp.S": "model = loggp: eager up to S bytes, rendezvous above.",
    "faults": "Dead links and nodes, and links down for a while: ITEM, "
              "ITEM, ... (see Faults, below). Messages go around them; the "
              "report lists them and what they did.",
    "fault-policy": "detour (the default): a message whose own path "
                    "crosses a fault goes around it, priced as the links it "
                    "takes; refuse: the run fails, naming the link.",
    "kernel.NAME": "The rate of local kernel NAME: per-flop:T (T ticks per "
                   "flop), or table:FILE or table:FILE:SCALE, a table of "
                   "Mflop/s by shape (see Kernel tables, below).",
}

YES_NO = ("wrap", "startup-holds-port", "memory-path",
          "neighbour.memory-path", "router.memory-path")


def machine_keys(cu):
    out = []
    if not cu.machine_keys:
        warn("the [machine] keys could not be read from the program")
    for k in cu.machine_keys:
        out.append(".TP")
        out.append(bold(k))
        prose = MACHINE_KEY_PROSE.get(k)
        if not prose:
            warn("[machine] key %s has no description in gen-man.py" % k)
            prose = "(not described here yet; see cubemu list and the README)"
        out.append(esc(prose))
    return out


def groups(cu):
    return [esc(", ".join("[%s]" % g for g in cu.groups) + ".")] if cu.groups else []


def named_list(cu, kind, text_key):
    """One tagged paragraph an entry of cubemu list --json's KIND: its name
    in bold, then its TEXT_KEY (a topology's summary, a preset's
    description)."""
    out = []
    for entry in cu.list.get(kind, []):
        out.append(".TP")
        out.append(bold(entry["name"]))
        out.append(esc(entry.get(text_key, "")))
    return out


def topologies(cu):
    return named_list(cu, "topologies", "summary")


def presets(cu):
    return named_list(cu, "presets", "description")


def param_text(p):
    kind = p.get("kind")
    if kind == "integer":
        what = "integer %s..%s" % (p.get("min"), p.get("max"))
    elif kind == "choice":
        what = "one of " + ", ".join(p.get("values", []))
    else:
        what = "text"
    if p.get("required"):
        dflt = "required"
    elif p.get("default") is None:
        dflt = "no default"
    else:
        dflt = "default " + str(p["default"])
    return "%s; %s. %s" % (what, dflt, p.get("help", ""))


def algorithms(cu):
    out = []
    for a in cu.list.get("algorithms", []):
        out.append(".SS " + quoted(a["name"]))
        out.append(esc(a.get("summary", "")) + ".")
        out.append("Source: " + esc(a.get("source", "")) + ".")
        out.append("Topologies: " + ", ".join(bold(t) for t in a.get("topologies", [])) + ".")
        out.append(".PP")
        out.append("Methods (" + bold("method") + "):")
        for m in a.get("methods", []):
            out.append(".TP")
            out.append(bold(m["name"]) + (" (default)" if m.get("default") else ""))
            out.append(esc(m.get("summary", "")))
        params = a.get("parameters", [])
        if params:
            out.append(".PP")
            out.append("Parameters:")
            for p in params:
                out.append(".TP")
                out.append(bold(p["name"]))
                out.append(esc(param_text(p)))
    return out


def expect_fields(cu):
    fields = [f for f in cu.expect_fields if f not in ("data", "bounds")]
    if not fields:
        warn("the [expect] fields could not be read from the program")
        return []
    return [".PP", ", ".join(bold(f) for f in fields) + "."]


def faults(cu):
    """machine.faults's items, fault-policy's values and the report's
    faults.* fields, from cubemu list --json."""
    f = cu.list.get("faults")
    if not f:
        warn("the fault syntax could not be read from the program")
        return []
    out = []
    for x in f.get("syntax", []):
        out.append(".TP")
        out.append(bold(x["form"]))
        out.append(esc(x["meaning"]))
    out.append(".PP")
    out.append(esc("fault-policy: " + ", ".join(f.get("policies", []))
                   + " (the first is the default). On a machine with faults "
                   "the report has these fields too, for [expect] and "
                   "sweeps:"))
    out.append(", ".join(bold(n) for n in f.get("fields", [])) + ".")
    return out


def trace_formats(cu):
    tf = cu.list.get("trace_formats", {})
    names = tf.get("names", [])
    ext = tf.get("extensions", [])
    return [esc("%s (by extension of -o: %s)." % (", ".join(names), ", ".join(ext)))]


# --- cubemu-mpi(1) -------------------------------------------------------------

MPI_OPTION_PROSE = {
    "--wait-limit": "A node that has waited SECONDS for its step's receives "
                    "with no packet arriving ends the job with every node's "
                    "state, which receive it waits for or that it finished "
                    "(exit status 1), instead of hanging on a deadlock. The "
                    "limit counts from the last packet the rank received. "
                    "60 s by default; 0: no limit.",
    "--json": "Print the report as one JSON object in the shape of cubemu "
              "run --json, with the fields an MPI run measures.",
}


def mpi_synopsis(cu):
    if not cu.mpi_usages:
        return [".PP", markup_usage("mpirun -np NODES cubemu-mpi run [SCENARIO] [OPTION]..."),
                ".PP", markup_usage("mpirun -np NODES cubemu-mpi check SCENARIO... [OPTION]...")]
    out = []
    for usage in cu.mpi_usages:
        out += [".PP", markup_usage(usage)]
    return out


def mpi_options(cu):
    run_opts = {o.long: o for o in cu.command_options(["check"])}
    run_opts.update({o.long: o for o in cu.command_options(["run"])})
    out = []
    for opt, arg in cu.mpi_options():
        if opt == "-np":
            continue
        o = cubemu_help.Option(None, opt, arg, "")
        out.append(".TP")
        out.append(option_tag(o))
        prose = MPI_OPTION_PROSE.get(opt) or (run_opts[opt].help if opt in run_opts else "")
        if not prose:
            warn("cubemu-mpi option %s has no description" % opt)
            prose = "As for cubemu run; see cubemu(1)."
        out.append(esc(prose))
    return out


# --- putting it together --------------------------------------------------------

def fill(template, parts, version, date):
    out = []
    for line in template.split("\n"):
        m = re.fullmatch(r"@([A-Z_]+)@", line.strip())
        if m and m.group(1) in parts:
            out.extend(parts[m.group(1)])
            continue
        out.append(line.replace("@VERSION@", version).replace("@DATE@", date))
    text = "\n".join(out)
    left = re.findall(r"@[A-Z_]+@", text)
    if left:
        raise SystemExit("gen-man.py: unknown placeholders %s" % " ".join(sorted(set(left))))
    return text.rstrip("\n") + "\n"


def source_env_vars(srcdir):
    """CUBEMU_* variables the program reads (the tests' own aside)."""
    names = set()
    for top in ("cli", "util", "emu", "machines", "run", "traces", "algorithms", "mpi", "lib"):
        for root, _, files in os.walk(os.path.join(srcdir, top)):
            for f in files:
                if f.endswith((".c", ".h")):
                    with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
                        names |= set(re.findall(r'getenv\("(CUBEMU_[A-Z0-9_]+)"\)', fh.read()))
    return sorted(names)


def page_date(srcdir):
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        return datetime.datetime.utcfromtimestamp(int(epoch)).strftime("%Y-%m-%d")
    try:
        d = subprocess.run(["git", "-C", srcdir, "log", "-1", "--format=%cs"],
                           capture_output=True, text=True, timeout=10).stdout.strip()
        if re.fullmatch(r"\d{4}-\d\d-\d\d", d):
            return d
    except (OSError, subprocess.SubprocessError):
        pass
    return datetime.date.today().isoformat()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cubemu", required=True)
    ap.add_argument("--mpi", default="")
    ap.add_argument("--version", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--srcdir", default=".")
    ap.add_argument("--page", action="append", default=[],
                    help="only this page (cubemu.1, cubemu-scenario.5, "
                    "cubemu-mpi.1); repeatable; default: every page")
    a = ap.parse_args()
    if "cubemu-mpi.1" in a.page and not a.mpi:
        ap.error("cubemu-mpi.1 needs --mpi")
    here = os.path.dirname(os.path.abspath(__file__))
    machines = os.path.join(os.path.abspath(a.srcdir), "machines")
    cu = cubemu_help.Cubemu(a.cubemu, a.mpi or None, machines)
    want = "cubemu " + a.version
    if cu.version_line != want:
        warn("`cubemu --version` says %r, the Makefile %r" % (cu.version_line, want))
    date = page_date(a.srcdir)
    os.makedirs(a.out, exist_ok=True)

    # Each page's parts, made only for the pages asked for.
    pages = {
        "cubemu.1": lambda: {
            "SYNOPSIS": cubemu_synopsis(cu),
            "COMMANDS": cubemu_commands(cu),
            "EXIT_STATUS": exit_status(cu),
        },
        "cubemu-scenario.5": lambda: {
            "GROUPS": groups(cu),
            "MACHINE_KEYS": machine_keys(cu),
            "TOPOLOGIES": topologies(cu),
            "PRESETS": presets(cu),
            "ALGORITHMS": algorithms(cu),
            "EXPECT_FIELDS": expect_fields(cu),
            "FAULTS": faults(cu),
            "TRACE_FORMATS": trace_formats(cu),
        },
    }
    if a.mpi:
        pages["cubemu-mpi.1"] = lambda: {
            "SYNOPSIS": mpi_synopsis(cu),
            "OPTIONS": mpi_options(cu),
        }
    for page, make_parts in pages.items():
        if a.page and page not in a.page:
            continue
        with open(os.path.join(here, page + ".in"), encoding="utf-8") as fh:
            text = fill(fh.read(), make_parts(), a.version, date)
        if page == "cubemu.1":
            for v in source_env_vars(a.srcdir):
                if v not in text:
                    warn("environment variable %s is read by the program but "
                         "not described in cubemu.1.in" % v)
        cubemu_help.write_whole(os.path.join(a.out, page), text, "ascii")
    return 0


if __name__ == "__main__":
    sys.exit(main())
