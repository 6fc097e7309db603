"""cubemu_help.py -- what the built programs say about themselves, parsed.

The man pages (docs/man/gen-man.py) and the shell completion
(docs/completion/gen-completion.py) are made from this, and this only
runs the built binaries: `cubemu --help`, `cubemu CMD --help` for every
command the top-level usage lists (and `cubemu CMD SUB --help` for a
command with subcommands, such as trace), `cubemu list --json`, and the
"(valid: ...)" lists of the errors for an unknown [machine] key, an unknown
group and an unknown [expect] field; `cubemu-mpi` with no arguments prints
its usage. Nothing here lists a command, an option or a key by hand, so the
pages and the completion follow the programs when an option is added.
Both generators write their files through write_whole.
"""

import json
import os
import re
import subprocess

OPTION_LINE = re.compile(
    r"^\s{2,}(?:(-[A-Za-z0-9]), )?(--[A-Za-z0-9][A-Za-z0-9-]*)(?:=(\S+))?(?:\s{2,}(.*))?$")


def run(argv, env=None, timeout=60):
    """(status, stdout, stderr) of a program, text."""
    e = dict(os.environ)
    e.update(env or {})
    # The help texts are the same in any locale; C keeps GLib's wording
    # and its "..." predictable.
    e["LC_ALL"] = "C.UTF-8"
    p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True,
                       env=e, timeout=timeout)
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"))


def write_whole(path, text, encoding):
    """Write TEXT to PATH whole or not at all: into PATH.tmp, then renamed
    over PATH, so that an interrupted generator leaves no half-written page
    or completion for make to take as up to date."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding=encoding) as fh:
        fh.write(text)
    os.replace(tmp, path)


def tidy(text):
    return text.replace("\u2026", "...")


class Option:
    def __init__(self, short, long, arg, help):
        self.short = short          # "-j" or None
        self.long = long            # "--jobs"
        self.arg = arg              # "N", "FILE", None for a switch
        self.help = help or ""

    def names(self):
        return [n for n in (self.short, self.long) if n]

    def __repr__(self):
        return "Option(%r, %r, %r)" % (self.short, self.long, self.arg)


class CommandHelp:
    """One `cubemu CMD [SUB] --help` in GLib's layout, or None's fields."""

    def __init__(self, words):
        self.words = words          # ["run"] or ["trace", "export"]
        self.ok = False
        self.usage = ""             # "[OPTION...] [SCENARIO]"
        self.summary = ""           # "run one scenario"
        self.options = []           # Application Options, in order
        self.help_options = []      # -h, --help
        self.trailer = []           # paragraphs after the options
        self.raw = ""


def parse_glib_help(words, text):
    """GLib's --help: Usage:, Help Options:, Application Options:, then
    the context's description."""
    h = CommandHelp(words)
    h.raw = text
    lines = tidy(text).split("\n")
    section = None
    trailer = []
    for i, line in enumerate(lines):
        if line.strip() == "Usage:":
            section = "usage"
            continue
        if line.strip() == "Help Options:":
            section = "help"
            continue
        if line.strip() == "Application Options:":
            section = "app"
            continue
        if section == "usage":
            if line.strip():
                u = line.strip()
                # "run [OPTION...] [SCENARIO] - run one scenario"
                parts = u.split(" ", 1)
                rest = parts[1] if len(parts) > 1 else ""
                if " - " in rest:
                    rest, h.summary = rest.split(" - ", 1)
                h.usage = rest.strip()
            elif h.usage:
                section = "after-usage"
            continue
        if section in ("help", "app"):
            m = OPTION_LINE.match(line)
            if m:
                o = Option(m.group(1), m.group(2), m.group(3), m.group(4))
                (h.options if section == "app" else h.help_options).append(o)
                continue
            if not line.strip():
                if section == "app":
                    section = "trailer"
                continue
            if section == "app" and line.startswith("  ") and h.options:
                # A description that GLib wrapped onto its own line.
                h.options[-1].help = (h.options[-1].help + " " + line.strip()).strip()
                continue
            section = "trailer"
        if section == "trailer":
            trailer.append(line)
    # Paragraphs, blank-line separated.
    para = []
    for line in trailer + [""]:
        if line.strip():
            para.append(line.rstrip())
        elif para:
            h.trailer.append(para)
            para = []
    h.ok = bool(h.usage or h.options)
    return h


class TopHelp:
    def __init__(self):
        self.synopsis = []          # ["cubemu run [SCENARIO] ...", ...]
        self.commands = []          # ["run", "check", ...], in order
        self.subcommands = {}       # {"trace": ["export", "info"]}
        self.describe = {}          # {"run": ["line", ...]}
        self.exit_status = ""       # "Exit status: ..."
        self.global_options = []    # ["--help", "--version"]
        self.choices = {}           # {"--view": ["graph", "matrix"]}


def parse_top_help(text):
    t = TopHelp()
    lines = tidy(text).split("\n")
    i = 0
    # Usage: lines "  cubemu ..." with continuation lines indented deeper.
    while i < len(lines) and lines[i].strip() != "Usage:":
        i += 1
    i += 1
    while i < len(lines) and lines[i].strip():
        s = lines[i].strip()
        if s.startswith("cubemu "):
            t.synopsis.append(s)
        elif t.synopsis:
            t.synopsis[-1] += " " + s
        i += 1
    for s in t.synopsis:
        w = s.split()
        if len(w) < 2:
            continue
        if w[1].startswith("-"):
            t.global_options += [x for x in re.findall(r"--?[A-Za-z][A-Za-z-]*", s)]
            continue
        cmd = w[1]
        if cmd not in t.commands:
            t.commands.append(cmd)
        if len(w) > 2 and re.fullmatch(r"[a-z][a-z-]*", w[2]):
            t.subcommands.setdefault(cmd, [])
            if w[2] not in t.subcommands[cmd]:
                t.subcommands[cmd].append(w[2])
        for opt, vals in re.findall(r"(--[a-z][a-z-]*) ([a-z][a-z0-9-]*(?:\|[a-z][a-z0-9-]*)+)", s):
            t.choices.setdefault(opt, [])
            for v in vals.split("|"):
                if v not in t.choices[opt]:
                    t.choices[opt].append(v)
    # The descriptions: "run    runs one scenario ..." then lines indented
    # to the text's column; "Exit status: ..." last.
    cur = None
    for line in lines[i:]:
        m = re.match(r"^([a-z][a-z-]*)(\s{2,})(\S.*)$", line)
        if m and m.group(1) in t.commands:
            cur = m.group(1)
            t.describe[cur] = [m.group(3)]
            continue
        if line.startswith("Exit status"):
            cur = "exit"
            t.exit_status = line.strip()
            continue
        if cur == "exit" and line.strip():
            t.exit_status += " " + line.strip()
            continue
        if cur and cur != "exit" and line.startswith(" ") and line.strip():
            t.describe[cur].append(line.strip())
            continue
        if not line.strip():
            cur = None if cur == "exit" else cur
    return t


def usage_options(usage):
    """Options named in a usage line: ("--set", "SECTION.KEY=VALUE")."""
    out = []
    for opt, arg in re.findall(r"(--?[A-Za-z][A-Za-z0-9-]*)(?:[ =]([A-Z][A-Za-z0-9_.=|]*))?", usage):
        if opt in ("-np",):
            out.append((opt, arg))
            continue
        out.append((opt, arg or None))
    return out


class Cubemu:
    """Everything the built programs tell; see the module's comment."""

    def __init__(self, cubemu, mpi=None, machines=None):
        self.cubemu = cubemu
        self.env = {"CUBEMU_MACHINES": machines} if machines else {}
        rc, out, err = run([cubemu, "--help"], self.env)
        if rc != 0 or "Usage:" not in out:
            raise SystemExit("%s --help failed (status %d): %s" % (cubemu, rc, err))
        self.top = parse_top_help(out)
        rc, out, _ = run([cubemu, "--version"], self.env)
        self.version_line = out.strip()
        self.help = {}              # ("run",) or ("trace", "export") -> CommandHelp
        for cmd in self.top.commands:
            for words in ([[cmd, s] for s in self.top.subcommands[cmd]]
                          if cmd in self.top.subcommands else [[cmd]]):
                rc, out, err = run([cubemu] + words + ["--help"], self.env)
                h = parse_glib_help(words, out) if rc == 0 else CommandHelp(words)
                if rc != 0:
                    h.raw = err
                self.help[tuple(words)] = h
        rc, out, err = run([cubemu, "list", "--json"], self.env)
        if rc != 0:
            raise SystemExit("%s list --json failed (status %d): %s" % (cubemu, rc, err))
        self.list = json.loads(out)
        self.machine_keys = self._valid("--set=machine.cubemu-probe=1", r"\(valid: ([^)]*)\)")
        self.groups = self._valid("--set=cubemuprobe.x=1", r"\(valid: ([^)]*)\)")
        fields = self._valid("--set=expect.cubemu-probe=1", r"\(fields: (.*?); and ([^)]*)\)",
                             both=True)
        self.expect_fields = fields
        self.mpi = mpi
        self.mpi_usage = None
        self.mpi_usages = []
        if mpi:
            rc, out, err = run([mpi], timeout=120)
            # "usage: LINE" and its continuation lines, one per command.
            m = re.search(r"usage: (.*(?:\n {7}\S.*)*)", err + out)
            if m:
                self.mpi_usages = [tidy(u.strip()) for u in m.group(1).split("\n")]
                self.mpi_usage = self.mpi_usages[0]

    def _valid(self, setting, pattern, both=False):
        rc, out, err = run([self.cubemu, "run", setting], self.env)
        m = re.search(pattern, err)
        if not m:
            return []
        text = m.group(1) + (", " + m.group(2) if both else "")
        names = []
        for n in re.split(r",\s*", text):
            n = n.strip()
            n = re.sub(r"\s+for L = .*$", "", n)
            if n and n not in names:
                names.append(n)
        return names

    def command_options(self, words):
        """Every option of a command: GLib's, else those in the usage."""
        h = self.help.get(tuple(words))
        opts = []
        if h and h.ok:
            opts = list(h.help_options) + list(h.options)
        seen = {o.long for o in opts} | {o.short for o in opts if o.short}
        prefix = "cubemu " + " ".join(words)
        for s in self.top.synopsis:
            if s == prefix or s.startswith(prefix + " "):
                for opt, arg in usage_options(s[len(prefix):]):
                    if opt not in seen:
                        seen.add(opt)
                        opts.append(Option(None, opt, arg, ""))
        return opts

    def mpi_options(self):
        """Every option of cubemu-mpi's commands, in order, each once."""
        opts = []
        for usage in self.mpi_usages:
            u = re.split(r" (?:run|check) ", usage, maxsplit=1)[-1]
            for o, a in usage_options(u):
                if o not in [x for x, _ in opts]:
                    opts.append((o, a))
        return opts
