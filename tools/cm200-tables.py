#!/usr/bin/env python3
"""tools/cm200-tables.py -- cubemu's CM-200 model against Tables 1, 3 and 6.

    tools/cm200-tables.py [--table 1|3|6] [--max-flops F] [--jobs N]
                          [--cubemu PATH] [--results FILE] [--readme FILE]
    tools/cm200-tables.py --compare FILE [--table ...] [--max-flops F] ...

Mathur & Johnsson (1992), every cell of Tables 1, 3 and 6, transcribed in
algorithms/matmul/cm200-tables.tsv. For each cell whose status is compare,
run build/cubemu on the table's base scenario with --set overrides:

  Table 1  scenarios/dblas/table1-base.ini: the routine (matvec, vecmat,
           rank1), P x P, the preset of the cell's nodes, processors auto
  Table 3  scenarios/matmul/table3-base.ini: P x Q x R, processors auto,
           and, as for Table 6, CMSSL's choice of stationary matrix: C
           stationary but where Section 5's rule picks A (P/R >= 8) or B
           (R/P >= 16). Table 3 prints the same runs as Table 6 where
           the two share a shape, 4096 x 4096 x 256 (docs/papers.md); for
           the cells the rule gives to A or B, C stationary is run as
           well and shown beside (c_seconds)
  Table 6  scenarios/matmul/table6-base.ini: stationary auto, processors
           auto (CMSSL's choice, Section 5), method cmssl (its nonsystolic
           A- and B-stationary blocks, Section 4.1; set in the scenario)

(nodes 256, 512, 1024, 2048 are the presets cm200-8k, -16k, -32k, -64k;
matmul verifies sample:1024 elements of C, the products are all computed).
Runs go --jobs at a time (default 2), largest first; identical runs once.

Without --compare: the rows of the cells run replace theirs in the results
TSV (default algorithms/matmul/cm200-tables-results.tsv; rows of cells not
run are kept), and the markdown tables are regenerated from the whole
results TSV between "<!-- cm200-tables:begin -->" and
"<!-- cm200-tables:end -->" in --readme (default
algorithms/matmul/README.md). Every file is written to a temporary file
and renamed. The output depends only on the model: regenerating on an
unchanged model gives identical bytes.

With --compare FILE: write nothing; compare the rows produced with FILE's
rows of the same cells, print each difference, and exit 1 if any.

--max-flops F skips the cells of more than F flops (2PQR; Table 1 2P^2).
A cubemu failure names the cell, prints its standard error and exits 1
without writing anything. Paths are relative to the repository (the
folder above tools/), so the script runs from anywhere.
"""

import argparse
import concurrent.futures
import json
import math
import os
import subprocess
import sys
import tempfile
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = 'algorithms/matmul/cm200-tables.tsv'
RESULTS = 'algorithms/matmul/cm200-tables-results.tsv'
README = 'algorithms/matmul/README.md'
BEGIN = '<!-- cm200-tables:begin -->'
END = '<!-- cm200-tables:end -->'

DATA_COLUMNS = ['table', 'row', 'routine', 'shape', 'nodes', 'mflops', 'time',
                'unit', 'seconds', 'basis', 'rate_check', 'repeat_of',
                'status', 'note']
RESULT_COLUMNS = ['table', 'row', 'shape', 'nodes', 'paper_seconds',
                  'cycles', 'model_seconds', 'ratio', 'target', 'verdict',
                  'stationary', 'processors', 'c_seconds']
PRESETS = {256: 'cm200-8k', 512: 'cm200-16k', 1024: 'cm200-32k',
           2048: 'cm200-64k'}
NODES = (256, 512, 1024, 2048)
BASE = {1: 'scenarios/dblas/table1-base.ini',
        3: 'scenarios/matmul/table3-base.ini',
        6: 'scenarios/matmul/table6-base.ini'}
TARGET = {1: 0.15, 3: 0.15, 6: 0.25}
TITLE = {1: 'Table 1 (level-2 DBLAS, P x P, ms)',
         3: 'Table 3 (CMSSL\'s choice of stationary matrix, seconds)',
         6: 'Table 6 (CMSSL\'s choice of stationary matrix, ms)'}


def fail(msg):
    sys.stderr.write('cm200-tables: %s\n' % msg)
    sys.exit(1)


def read_tsv(path, columns):
    """The rows of a TSV with a header naming COLUMNS ('#' lines skipped)."""
    try:
        with open(path, encoding='utf-8') as f:
            lines = [l.rstrip('\n') for l in f if not l.startswith('#')]
    except OSError as e:
        fail('%s: %s' % (path, e.strerror))
    if not lines or lines[0].split('\t') != columns:
        fail('%s: the header is not %s' % (path, '\t'.join(columns)))
    rows = []
    for n, line in enumerate(lines[1:], 2):
        fields = line.split('\t')
        if len(fields) != len(columns):
            fail('%s: data line %d has %d fields, not %d'
                 % (path, n, len(fields), len(columns)))
        rows.append(dict(zip(columns, fields)))
    return rows


def key(row):
    return (int(row['table']), int(row['row']), int(row['nodes']))


def flops(routine, shape):
    d = [int(x) for x in shape.split('x')]
    return 2 * d[0] * d[1] * (d[2] if routine == 'matmul' else 1)


def section5_choice(shape):
    """The stationary matrix Section 5's rule gives P x Q x R: A when P/R
    >= 8, B when R/P >= 16, else C (matmul.c applies the same rule to
    stationary = auto; the runs report what it chose)."""
    p, _, r = (int(x) for x in shape.split('x'))
    return 'A' if p >= 8 * r else 'B' if r >= 16 * p else 'C'


def overrides(cell, stationary='auto'):
    """The --set arguments that make the table's base scenario the cell
    (matmul: with STATIONARY, CMSSL's choice unless told; both bases set
    method = cmssl)."""
    t = int(cell['table'])
    sets = ['machine.preset=' + PRESETS[int(cell['nodes'])],
            'algorithm.shape=' + cell['shape'],
            'algorithm.processors=auto']
    if t == 1:
        sets.append('algorithm.name=' + cell['routine'])
    else:
        sets.append('algorithm.stationary=' + stationary)
        sets.append('algorithm.verify=sample:1024')
    return (BASE[t], tuple(sets))


def c_overrides(cell):
    """A Table 3 cell's C-stationary run where Section 5's rule picks A or
    B, else None."""
    if int(cell['table']) != 3 or section5_choice(cell['shape']) == 'C':
        return None
    return overrides(cell, 'C')


def label(cell):
    return 'Table %s row %s (%s %s, %s nodes)' % (
        cell['table'], cell['row'], cell['routine'], cell['shape'],
        cell['nodes'])


LIVE = set()          # the cubemu processes running now
LIVE_LOCK = threading.Lock()
STOPPING = False


def stop_all():
    """Start no more runs and kill the ones this script started."""
    global STOPPING
    with LIVE_LOCK:
        STOPPING = True
        for p in LIVE:
            p.kill()


def run_cubemu(cubemu, run, cell):
    """Run one scenario; the report's cycles, stationary and processors."""
    base, sets = run
    argv = [cubemu, 'run', '--json', '--quiet', base]
    for s in sets:
        argv += ['--set', s]
    with LIVE_LOCK:
        if STOPPING:
            raise RuntimeError('stopped')
        p = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        LIVE.add(p)
    out, err = p.communicate()
    with LIVE_LOCK:
        LIVE.discard(p)
    if p.returncode != 0:
        raise RuntimeError('%s: %s exited with status %d:\n%s'
                           % (label(cell), ' '.join(argv), p.returncode,
                              err.rstrip()))
    try:
        rep = json.loads(out)
    except ValueError:
        raise RuntimeError('%s: %s printed no JSON report:\n%s'
                           % (label(cell), ' '.join(argv), err.rstrip()))
    if rep.get('data_correct') is not True:
        raise RuntimeError('%s: the run\'s data are not correct' % label(cell))
    det = rep.get('details', {})
    return {'cycles': int(rep['cycles']),
            'tick': float(rep['machine']['tick_seconds']),
            'stationary': det.get('stationary', '-'),
            'processors': det.get('processors', '-')}


def run_all(cubemu, cells, jobs):
    """Run every distinct scenario of CELLS; a dict run -> report."""
    runs = {}
    for c in cells:
        runs.setdefault(overrides(c), c)
        if c_overrides(c):
            runs.setdefault(c_overrides(c), c)
    order = sorted(runs, key=lambda r: (-flops(runs[r]['routine'],
                                               runs[r]['shape']), r))
    out = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        futs = {ex.submit(run_cubemu, cubemu, r, runs[r]): r for r in order}
        for f in concurrent.futures.as_completed(futs):
            try:
                out[futs[f]] = f.result()
            except RuntimeError as e:
                for g in futs:
                    g.cancel()
                stop_all()
                fail(str(e))
    return out


def fmt_seconds(x):
    return '%.7g' % x


def result_row(cell, rep, c_rep=None):
    t = int(cell['table'])
    paper = float(cell['seconds'])
    model = rep['cycles'] * rep['tick']
    ratio = model / paper
    target = TARGET[t]
    within = abs(ratio - 1) <= target + 1e-12
    return {'table': cell['table'], 'row': cell['row'],
            'shape': cell['shape'], 'nodes': cell['nodes'],
            'paper_seconds': cell['seconds'], 'cycles': str(rep['cycles']),
            'model_seconds': fmt_seconds(model), 'ratio': '%.3f' % ratio,
            'target': '%d%%' % round(target * 100),
            'verdict': 'within' if within else 'outside',
            'stationary': rep['stationary'], 'processors': rep['processors'],
            'c_seconds': fmt_seconds(c_rep['cycles'] * c_rep['tick'])
                         if c_rep else '-'}


def write_atomic(path, text):
    """Write TEXT to PATH through a temporary file in the same folder."""
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix='.cm200-tables.', dir=d)
    try:
        with os.fdopen(fd, 'w', encoding='utf-8') as f:
            f.write(text)
        if os.path.exists(path):
            mode = os.stat(path).st_mode & 0o777
        else:
            mask = os.umask(0)
            os.umask(mask)
            mode = 0o666 & ~mask
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as e:
        os.unlink(tmp)
        fail('%s: %s' % (path, e.strerror))


def results_text(rows):
    lines = ['# tools/cm200-tables.py: cubemu\'s CM-200 model on every cell of',
             '# algorithms/matmul/cm200-tables.tsv marked compare. ratio =',
             '# model_seconds / paper_seconds; verdict: within when |ratio - 1|',
             '# <= target. c_seconds: the model with C stationary where',
             '# Section 5\'s rule gives a Table 3 shape to A or B (not',
             '# compared), else -. Regenerate with tools/cm200-tables.py.',
             '\t'.join(RESULT_COLUMNS)]
    for r in sorted(rows, key=key):
        lines.append('\t'.join(r[c] for c in RESULT_COLUMNS))
    return '\n'.join(lines) + '\n'


# ---- markdown

def fmt4(x):
    """Four significant digits, never an exponent."""
    if x == 0:
        return '0'
    decimals = max(0, 3 - int(math.floor(math.log10(abs(x)))))
    return '%.*f' % (decimals, x)


def shape_text(s):
    return ' x '.join(s.split('x'))


def unit_scale(table):
    return 1.0 if table == 3 else 1000.0


def cell_text(cell, res):
    """(paper, model, ratio) of one cell in its table's unit."""
    t = int(cell['table'])
    if cell['status'] == 'excluded':
        if cell['time'] == '-':
            return ('—', '', '')
        return (cell['time'] + '‡', '', 'excl.')
    paper = cell['time'] if cell['basis'] == 'time' else (
        fmt4(float(cell['seconds']) * unit_scale(t)) + '†')
    if res is None:
        return (paper, 'not run', '')
    model = fmt4(float(res['model_seconds']) * unit_scale(t))
    if t != 1:
        model += ' %s %s' % (res['stationary'], res['processors'])
    if res['c_seconds'] != '-':
        model += ' (C: %s)' % fmt4(float(res['c_seconds']) * unit_scale(t))
    ratio = res['ratio']
    if res['verdict'] != 'within':
        ratio = '**%s**' % ratio
    return (paper, model, ratio)


def table_markdown(t, cells, results):
    rows = sorted({int(c['row']) for c in cells if int(c['table']) == t})
    bycell = {key(c): c for c in cells}
    first = {1: 'P', 3: 'P x Q x R', 6: 'P x P x R'}[t]
    head = '| %s |' % first
    rule = '| --- |'
    for n in NODES:
        head += ' %d paper | model | ratio |' % n
        rule += ' --- | --- | --- |'
    out = [head, rule]
    routine = None
    for r in rows:
        c0 = bycell[(t, r, NODES[0])]
        if t == 1 and c0['routine'] != routine:
            routine = c0['routine']
            out.append('| *%s* |%s' % (routine, ' |' * (3 * len(NODES))))
        name = c0['shape'].split('x')[0] if t == 1 else shape_text(c0['shape'])
        line = '| %s |' % name
        for n in NODES:
            c = bycell[(t, r, n)]
            line += ' %s | %s | %s |' % cell_text(c, results.get(key(c)))
        out.append(line)
    return out


def worst_text(res, cell):
    return '%s (%s, %s nodes)' % (res['ratio'], shape_text(cell['shape'])
                                  if cell['routine'] == 'matmul' else
                                  '%s %s' % (cell['routine'],
                                             shape_text(cell['shape'])),
                                  cell['nodes'])


def summary_line(t, cells, results):
    comp = [c for c in cells if int(c['table']) == t
            and c['status'] == 'compare']
    done = [(c, results[key(c)]) for c in comp if key(c) in results]
    within = sum(1 for _, r in done if r['verdict'] == 'within')
    repeats = sum(1 for c in comp if c['repeat_of'] != '-')
    s = ('%d cells compared' % len(comp))
    if repeats:
        s += ' (%d of them repeats)' % repeats
    s += ', %d within %d%%' % (within, round(TARGET[t] * 100))
    if done:
        def far(cr):
            x = float(cr[1]['ratio'])
            return (max(x, 1 / x), key(cr[0]))
        lo = min(done, key=lambda cr: (float(cr[1]['ratio']), key(cr[0])))
        hi = max(done, key=lambda cr: (float(cr[1]['ratio']),
                                       tuple(-k for k in key(cr[0]))))
        w = max(done, key=far)
        other, word = (lo, 'lowest') if w is hi else (hi, 'highest')
        s += '; worst %s, %s %s' % (worst_text(w[1], w[0]), word,
                                     worst_text(other[1], other[0]))
    if len(done) < len(comp):
        s += '; %d not run' % (len(comp) - len(done))
    return s


def excluded_lines(t, cells):
    out = []
    blanks = {}
    for c in cells:
        if int(c['table']) != t or c['status'] != 'excluded':
            continue
        if c['time'] == '-':
            blanks.setdefault(int(c['row']), []).append(c)
        else:
            out.append('- %s on %s nodes (row %s): %s.'
                       % (shape_text(c['shape']) if t != 1 else
                          c['routine'] + ' ' + shape_text(c['shape']),
                          c['nodes'], c['row'], c['note']))
    if blanks:
        parts = []
        for r in sorted(blanks):
            cs = blanks[r]
            name = shape_text(cs[0]['shape'])
            if t == 1:
                name = cs[0]['routine'] + ' ' + name
            parts.append('%s on %s' % (name, ', '.join(c['nodes'] for c in cs)))
        out.append('- No value in the paper (%d cells): %s nodes.'
                   % (sum(len(v) for v in blanks.values()), '; '.join(parts)))
    return out


def markdown(cells, results):
    out = [BEGIN,
           '<!-- generated by tools/cm200-tables.py from',
           '     algorithms/matmul/cm200-tables.tsv and',
           '     cm200-tables-results.tsv; do not edit by hand -->', '']
    for t in (1, 3, 6):
        out.append('**%s.** %s.' % (TITLE[t], summary_line(t, cells, results)))
        out.append('')
        out += table_markdown(t, cells, results)
        out.append('')
        ex = excluded_lines(t, cells)
        if ex:
            out.append('Left out of Table %d\'s comparison:' % t)
            out.append('')
            out += ex
            out.append('')
    out.append('Bold: outside the target. ‡: left out (the reasons follow '
               'the table). —: no value in the paper. †: from the Mflop/s, '
               'the printed time being a misprint ([the notes on the '
               'papers](../../docs/papers.md)). The model column of Tables 3 '
               'and 6 names the stationary matrix and the processor array '
               'that ran, and in parentheses, where Section 5\'s rule gives '
               'a Table 3 shape to A or B, the model\'s time with C '
               'stationary (not compared).')
    out.append(END)
    return '\n'.join(out) + '\n'


def splice(path, block):
    try:
        with open(path, encoding='utf-8') as f:
            text = f.read()
    except OSError as e:
        fail('%s: %s' % (path, e.strerror))
    b, e = text.find(BEGIN), text.find(END)
    if b < 0 or e < b or text.count(BEGIN) != 1 or text.count(END) != 1:
        fail('%s: needs one %s line followed by one %s line'
             % (path, BEGIN, END))
    return text[:b] + block.rstrip('\n') + text[e + len(END):]


# ---- main

def parse_args(argv):
    ap = argparse.ArgumentParser(
        description='cubemu\'s CM-200 model against Mathur & Johnsson\'s '
                    'Tables 1, 3 and 6')
    ap.add_argument('--table', type=int, choices=(1, 3, 6), action='append',
                    help='only this table (repeatable)')
    ap.add_argument('--max-flops', type=float,
                    help='skip cells of more than this many flops')
    ap.add_argument('--jobs', type=int, default=2,
                    help='runs at a time (default 2)')
    ap.add_argument('--cubemu', default=os.path.join(ROOT, 'build', 'cubemu'),
                    help='the cubemu binary (default build/cubemu)')
    ap.add_argument('--data', default=os.path.join(ROOT, DATA))
    ap.add_argument('--results', default=os.path.join(ROOT, RESULTS))
    ap.add_argument('--readme', default=os.path.join(ROOT, README))
    ap.add_argument('--compare', metavar='FILE',
                    help='write nothing; compare with FILE\'s rows')
    a = ap.parse_args(argv)
    if a.jobs < 1:
        ap.error('--jobs must be at least 1')
    a.cubemu = os.path.abspath(a.cubemu)
    if not os.access(a.cubemu, os.X_OK):
        ap.error('--cubemu %s is not an executable' % a.cubemu)
    return a


def selected(cells, a):
    out = []
    for c in cells:
        if c['status'] != 'compare':
            continue
        if a.table and int(c['table']) not in a.table:
            continue
        if a.max_flops is not None and \
                flops(c['routine'], c['shape']) > a.max_flops:
            continue
        out.append(c)
    return out


def compare(rows, path):
    old = {key(r): r for r in read_tsv(path, RESULT_COLUMNS)}
    bad = 0
    for r in sorted(rows, key=key):
        o = old.get(key(r))
        if o is None:
            print('Table %s row %s, %s nodes: not in %s'
                  % (r['table'], r['row'], r['nodes'], path))
            bad += 1
            continue
        for c in RESULT_COLUMNS:
            if r[c] != o[c]:
                print('Table %s row %s (%s), %s nodes: %s %s, %s has %s'
                      % (r['table'], r['row'], r['shape'], r['nodes'], c,
                         r[c], path, o[c]))
                bad += 1
    if bad:
        print('if the model changed, rerun tools/cm200-tables.py with no '
              'options and commit the results and the README')
    print('%d cells compared with %s, %d differences' % (len(rows), path, bad))
    return bad == 0


def main(argv):
    a = parse_args(argv)
    cells = read_tsv(a.data, DATA_COLUMNS)
    todo = selected(cells, a)
    reports = run_all(a.cubemu, todo, a.jobs)
    rows = []
    for c in todo:
        rep = reports[overrides(c)]
        if c['routine'] == 'matmul' and \
                rep['stationary'] != section5_choice(c['shape']):
            fail('%s: cubemu chose %s stationary, Section 5\'s rule %s'
                 % (label(c), rep['stationary'], section5_choice(c['shape'])))
        rows.append(result_row(c, rep, reports.get(c_overrides(c))))
    if a.compare:
        return 0 if compare(rows, a.compare) else 1
    results = {}
    if os.path.exists(a.results):
        results = {key(r): r for r in read_tsv(a.results, RESULT_COLUMNS)}
    for r in rows:
        results[key(r)] = r
    live = {key(c) for c in cells if c['status'] == 'compare'}
    results = {k: r for k, r in results.items() if k in live}
    readme = splice(a.readme, markdown(cells, results))
    write_atomic(a.results, results_text(results.values()))
    write_atomic(a.readme, readme)
    print('%d cells run; %s and %s written'
          % (len(rows), os.path.relpath(a.results), os.path.relpath(a.readme)))
    for t in (1, 3, 6):
        print('Table %d: %s' % (t, summary_line(t, cells, results)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
