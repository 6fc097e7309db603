#!/usr/bin/env python3
"""gen-completion.py -- bash (and zsh) completion for cubemu, generated
from what the built program prints (docs/man/cubemu_help.py): the commands
and subcommands of `cubemu --help`, every command's options from `cubemu
CMD --help`, and from `cubemu list --json` the algorithms, their methods,
parameters and choice values, the topologies, the presets, the trace
export formats, fault-policy's values and the faults.* fields; the [machine] keys and [expect] fields from the lists in
the program's errors.

    gen-completion.py --cubemu build/cubemu --out build/completion
                      [--machines machines] [--only cubemu|_cubemu]

writes OUT/cubemu (bash: share/bash-completion/completions/cubemu) and
OUT/_cubemu (zsh: share/zsh/site-functions/_cubemu, the same functions
through zsh's bashcompinit).

What completes: commands; options per command (and per trace
subcommand); --set and --vary SECTION.KEY=VALUE (groups, keys, then values:
algorithm names, the named algorithm's methods, parameters and choice
values, presets, topologies, ports, yes/no, data = correct, bounds =
hold; --vary after a comma too); --format's export formats; --view's
views; --y's fields; --x's keys; file names for scenarios (*.ini), traces
and outputs, folders for --frames.
"""

import argparse
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "man"))
import cubemu_help  # noqa: E402


def sq(text):
    """A bash single-quoted word."""
    return "'" + text.replace("'", "'\\''") + "'"


def words(items):
    return sq(" ".join(items))


def option_kind(opt, cu):
    """How an option's value completes."""
    arg = opt.arg
    if not arg:
        return "none"
    if opt.long == "--format":
        return "format"
    if "V1,V2" in arg:
        return "vary"
    if "=" in arg and "KEY" in arg:
        return "assign"
    if opt.long in cu.top.choices:
        return "choice:" + " ".join(cu.top.choices[opt.long])
    if arg == "DIR":
        return "dir"
    if arg in ("FILE", "OUT") or arg.startswith("OUT."):
        return "file"
    if arg == "FIELD":
        return "field"
    if arg == "KEY":
        return "key"
    return "value"


def positional_kind(cu, ctx):
    """What the non-option words of a command are."""
    if ctx in cu.top.subcommands:
        return "sub"
    h = cu.help.get(tuple(ctx.split()))
    usage = h.usage if h and h.ok else ""
    if not usage:
        for s in cu.top.synopsis:
            if s.startswith("cubemu " + ctx + " ") or s == "cubemu " + ctx:
                usage = s[len("cubemu " + ctx):]
    if "TRACE" in usage:
        return "file"
    if "SCENARIO" in usage:
        return "ini"
    return "none"


BODY = r'''
# The words before the cursor, as the user typed them: bash breaks a word
# at '=' (COMP_WORDBREAKS), "--set" "a.b" "=" "v"; they are joined again,
# and only the part after the last '=' is replaced (what readline replaces).
# zsh's bashcompinit gives whole words, replaced whole.
__FUNC__() {
    if [[ -n ${ZSH_VERSION-} ]]; then
        setopt localoptions ksharrays shwordsplit
    fi
    local -a w=()
    local i t n=0 joined=0
    for ((i = 0; i <= COMP_CWORD; i++)); do
        t=${COMP_WORDS[i]-}
        if ((n > 0 && i > 0)) && [[ $t == "=" ]]; then
            w[n-1]="${w[n-1]}="; joined=1
        elif ((n > 0 && joined)) && [[ ${w[n-1]} == *= ]]; then
            w[n-1]="${w[n-1]}$t"; joined=0
        else
            w[n]=$t; n=$((n + 1)); joined=0
        fi
    done
    local cur=${w[n-1]-} raw=${COMP_WORDS[COMP_CWORD]-} lead=""
    if [[ $cur != "$raw" ]]; then
        lead=${cur%"${cur##*=}"}
    fi

    # The command (and subcommand), and an algorithm named on the line.
    local cmd="" sub="" alg="" kind
    for ((i = 1; i < n - 1; i++)); do
        t=${w[i]}
        case $t in
            *algorithm.name=*) [[ ${t##*=} == *,* ]] || alg=${t##*=} ;;
        esac
        if [[ $t == -* ]]; then
            if [[ $t != *=* && -n $cmd ]]; then
                kind=$(_cubemu_option_kind "$cmd${sub:+ $sub}" "$t")
                [[ $kind != none ]] && i=$((i + 1)) && {
                    case ${w[i]-} in *algorithm.name=*) [[ ${w[i]##*=} == *,* ]] || alg=${w[i]##*=} ;; esac
                }
            fi
        elif [[ -z $cmd ]]; then
            cmd=$t
        elif [[ -z $sub && -n $(_cubemu_subcommands "$cmd") ]]; then
            sub=$t
        fi
    done
    local ctx="$cmd${sub:+ $sub}" prev=""
    ((n >= 2)) && prev=${w[n-2]}

    local -a cands=()
    local files="" opt
    if [[ -z $cmd ]]; then
        if [[ $cur == -* ]]; then
            cands=(__GLOBAL__)
        else
            cands=(__COMMANDS__)
        fi
    elif [[ $prev == -* && $prev != *=* ]] &&
         kind=$(_cubemu_option_kind "$ctx" "$prev") && [[ $kind != none ]]; then
        _cubemu_value "$kind" "" "$cur"
    elif [[ $cur == -*=* ]] && opt=${cur%%=*} &&
         kind=$(_cubemu_option_kind "$ctx" "$opt") && [[ $kind != none ]]; then
        _cubemu_value "$kind" "$opt=" "${cur#*=}"
    elif [[ $cur == -* ]]; then
        cands=($(_cubemu_options "$ctx"))
    else
        case $(_cubemu_positional "$ctx") in
            sub) cands=($(_cubemu_subcommands "$cmd")) ;;
            ini) files=ini ;;
            file) files=file ;;
        esac
    fi

    COMPREPLY=()
    local c
    if [[ -n $files ]]; then
        local pre="" text=$cur
        if [[ $cur == -*=* ]]; then pre="${cur%%=*}="; text=${cur#*=}; fi
        local IFS=$'\n'
        case $files in
            ini) cands=($(compgen -d -- "$text"; compgen -f -X '!*.ini' -- "$text")) ;;
            dir) cands=($(compgen -d -- "$text")) ;;
            *) cands=($(compgen -f -- "$text")) ;;
        esac
        unset IFS
        for c in "${cands[@]}"; do
            c="$pre$c"
            COMPREPLY+=("${c#"$lead"}")
        done
        if type compopt >/dev/null 2>&1; then compopt -o filenames 2>/dev/null; fi
        return 0
    fi
    local nospace=0
    for c in "${cands[@]}"; do
        if [[ $c == "$cur"* ]]; then
            COMPREPLY+=("${c#"$lead"}")
            [[ $c == *[=.] ]] && nospace=1
        fi
    done
    if ((nospace)) && type compopt >/dev/null 2>&1; then
        compopt -o nospace 2>/dev/null
    fi
    return 0
}

# _cubemu_value KIND PREFIX TEXT: the candidates for an option's value
# TEXT, each PREFIX + value, into cands (or files= for file names).
_cubemu_value() {
    local kind=$1 pre=$2 text=$3 k v head="" c
    case $kind in
        file) files=file; return ;;
        dir) files=dir; return ;;
        format) for c in __FORMATS__; do cands+=("$pre$c"); done ;;
        choice:*) for c in ${kind#choice:}; do cands+=("$pre$c"); done ;;
        field) for c in __FIELDS__; do cands+=("$pre$c"); done ;;
        key) for c in $(_cubemu_keys machine) $(_cubemu_keys algorithm); do
                 cands+=("$pre${c%=}")
             done ;;
        assign|vary)
            if [[ $text != *=* ]]; then
                if [[ $text != *.* ]]; then
                    for c in __GROUPS__; do cands+=("$pre$c."); done
                else
                    for c in $(_cubemu_keys "${text%%.*}"); do cands+=("$pre$c"); done
                fi
                return
            fi
            k=${text%%=*}; v=${text#*=}
            if [[ $kind == vary && $v == *,* ]]; then head="${v%,*},"; fi
            for c in $(_cubemu_key_values "$k"); do cands+=("$pre$k=$head$c"); done ;;
    esac
}

# _cubemu_keys GROUP: GROUP.KEY= for every key of the group.
_cubemu_keys() {
    local c
    case $1 in
        machine)
            for c in __MACHINE_KEYS__; do
                case $c in *.NAME) echo "machine.${c%NAME}" ;; *) echo "machine.$c=" ;; esac
            done ;;
        algorithm)
            echo algorithm.name= algorithm.method=
            for c in $(_cubemu_params "$alg"); do echo "algorithm.$c="; done ;;
        expect)
            for c in __FIELDS__ __EXPECT_WORDS__; do echo "expect.$c="; done ;;
    esac
}

# _cubemu_key_values SECTION.KEY: the values it takes, where they are known.
_cubemu_key_values() {
    case $1 in
        algorithm.name) echo __ALGORITHMS__ ;;
        algorithm.method) _cubemu_methods "$alg" ;;
        algorithm.*) _cubemu_param_values "$alg" "${1#algorithm.}" ;;
        machine.preset) echo __PRESETS__ ;;
        machine.topology) echo __TOPOLOGIES__ ;;
        machine.ports) echo all one ;;
        machine.fault-policy) echo __FAULT_POLICIES__ ;;
        machine.faults) echo none ;;
        __YES_NO_CASE__) echo yes no ;;
        expect.data) echo correct ;;
        expect.bounds) echo hold ;;
    esac
}
'''


def case_fn(name, arg_expr, table, default=None):
    lines = ["%s() {" % name, "    case %s in" % arg_expr]
    for key, value in table:
        lines.append("        %s) echo %s ;;" % (sq(key), sq(value)))
    if default is not None:
        lines.append("        *) echo %s ;;" % sq(default))
    lines.append("    esac")
    lines.append("}")
    return "\n".join(lines)


def generate(cu, func, version):
    out = []
    cmds = cu.top.commands
    contexts = []
    for c in cmds:
        contexts.append(c)
        for s in cu.top.subcommands.get(c, []):
            contexts.append(c + " " + s)

    algs = cu.list.get("algorithms", [])
    alg_names = [a["name"] for a in algs]
    union_methods, union_params = [], []
    param_values = []           # ("alg param", "v1 v2")
    union_param_values = {}
    for a in algs:
        for m in a.get("methods", []):
            if m["name"] not in union_methods:
                union_methods.append(m["name"])
        for p in a.get("parameters", []):
            if p["name"] not in union_params:
                union_params.append(p["name"])
            if p.get("kind") == "choice":
                param_values.append((a["name"] + " " + p["name"], " ".join(p["values"])))
                u = union_param_values.setdefault(p["name"], [])
                u += [v for v in p["values"] if v not in u]

    opt_table, kind_table = [], []
    for ctx in contexts:
        if ctx in cu.top.subcommands:
            opts = []
        else:
            opts = cu.command_options(ctx.split())
        names = []
        for o in opts:
            names += o.names()
            k = option_kind(o, cu)
            if k != "none":
                for n in o.names():
                    kind_table.append((ctx + " " + n, k))
        opt_table.append((ctx, " ".join(names)))

    faults = cu.list.get("faults", {})
    fields = [f for f in cu.expect_fields if f not in ("data", "bounds")]
    fields += [f for f in faults.get("fields", []) if f not in fields]
    expect_words = [f for f in ("data", "bounds") if f in cu.expect_fields] or ["data", "bounds"]
    yes_no = [k for k in cu.machine_keys if k in ("wrap", "startup-holds-port")]
    formats = cu.list.get("trace_formats", {}).get("names", [])

    out.append("# %s completion for cubemu %s. Generated by" % ("bash" if func == "_cubemu" else "zsh", version))
    out.append("# docs/completion/gen-completion.py from what the built cubemu prints")
    out.append("# (--help of every command, list --json); do not edit.")
    out.append("")
    out.append(case_fn("_cubemu_subcommands", '"$1"',
                       [(c, " ".join(s)) for c, s in cu.top.subcommands.items()]))
    out.append(case_fn("_cubemu_options", '"$1"', opt_table))
    out.append(case_fn("_cubemu_option_kind", '"$1 $2"', kind_table, "none"))
    out.append(case_fn("_cubemu_positional", '"$1"',
                       [(c, positional_kind(cu, c)) for c in contexts], "none"))
    out.append(case_fn("_cubemu_methods", '"$1"',
                       [(a["name"], " ".join(m["name"] for m in a.get("methods", []))) for a in algs],
                       " ".join(union_methods)))
    out.append(case_fn("_cubemu_params", '"$1"',
                       [(a["name"], " ".join(p["name"] for p in a.get("parameters", []))) for a in algs],
                       " ".join(union_params)))
    pv = param_values + [("* " + p, " ".join(v)) for p, v in union_param_values.items()]
    lines = ["_cubemu_param_values() {", '    case "$1 $2" in']
    for key, value in pv:
        pat = key if key.startswith("* ") else sq(key)
        if key.startswith("* "):
            pat = "*" + sq(key[1:])
        lines.append("        %s) echo %s ;;" % (pat, sq(value)))
    lines += ["    esac", "}"]
    out.append("\n".join(lines))

    body = BODY.replace("__FUNC__", func)
    subst = {
        "__GLOBAL__": " ".join(sq(g) for g in (cu.top.global_options + ["-h"])),
        "__COMMANDS__": " ".join(sq(c) for c in cmds + ["help"]),
        "__FORMATS__": " ".join(sq(f) for f in formats),
        "__FIELDS__": " ".join(sq(f) for f in fields),
        "__FAULT_POLICIES__": " ".join(sq(p) for p in faults.get("policies", ["detour", "refuse"])),
        "__EXPECT_WORDS__": " ".join(sq(f) for f in expect_words),
        "__GROUPS__": " ".join(sq(g) for g in (cu.groups or ["machine", "algorithm", "expect"])),
        "__MACHINE_KEYS__": " ".join(sq(k) for k in cu.machine_keys),
        "__ALGORITHMS__": " ".join(sq(a) for a in alg_names),
        "__PRESETS__": " ".join(sq(p["name"]) for p in cu.list.get("presets", [])),
        "__TOPOLOGIES__": " ".join(sq(t["name"]) for t in cu.list.get("topologies", [])),
        "__YES_NO_CASE__": "|".join("machine." + k for k in yes_no) or "machine.wrap",
    }
    for k, v in subst.items():
        body = body.replace(k, v)
    out.append(body)
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cubemu", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--machines", default="")
    ap.add_argument("--only", choices=("cubemu", "_cubemu"),
                    help="write only OUT/cubemu (bash) or OUT/_cubemu (zsh)")
    a = ap.parse_args()
    cu = cubemu_help.Cubemu(a.cubemu, None, a.machines or None)
    version = cu.version_line.split()[-1] if cu.version_line else "?"
    os.makedirs(a.out, exist_ok=True)
    bash = generate(cu, "_cubemu", version) + "complete -F _cubemu cubemu\n"
    zsh = ("#compdef cubemu\n"
           + generate(cu, "_cubemu_complete", version)
           + "\n# zsh: the functions above through zsh's emulation of bash's completion.\n"
           + "autoload -U +X bashcompinit && bashcompinit\n"
           + "complete -F _cubemu_complete cubemu\n"
           + "# The first time, this file is the body of _cubemu: complete now.\n"
           + "if [[ -n ${words-} ]]; then _bash_complete -F _cubemu_complete; fi\n")
    for name, text in (("cubemu", bash), ("_cubemu", zsh)):
        if a.only and name != a.only:
            continue
        cubemu_help.write_whole(os.path.join(a.out, name), text, "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
