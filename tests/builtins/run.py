#!/usr/bin/env python3
"""The builtin differential test (tests/builtins/README.md): gen.py's
kernels built for gfx1250 (clang-22 + libclc-22), run by `mirage emulate` and
by POCL on the same inputs, their outputs compared; then the round trip: each
object translated by `mirage rewrite --target gfx942|gfx950` and the
translation emulated on the same launches.

run.py --gen DIR --work DIR --mirage M --pocl-batch P [options]

Per (stage, level) -- stage gfx1250 or the round trip's target -- every
kernel is raised (runs), refused (by the raiser or the translator: counted
with its reason, not a failure), faulted (mirage emulate exits 1 without a
refusal: a failure) or not judged (POCL could not run it); every case of a
kernel that ran matches or mismatches POCL's bytes.  A mismatch or fault the
xfail list names is expected; a listed case that matches is reported
(XPASS) so the list can be emptied.  Exit 0 when every failure is listed and
every listed one still fails, 1 otherwise.
"""
import argparse
import concurrent.futures
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import time

import gen

LIBCLC = '/usr/lib/clc/amdgcn-amd-amdhsa.bc'
PACK = gen.PACK
ELEM = {'char': 1, 'uchar': 1, 'short': 2, 'ushort': 2, 'int': 4, 'uint': 4,
        'long': 8, 'ulong': 8, 'float': 4, 'double': 8}


def log(*a):
    print(*a, flush=True)


class Ctx:
    pass


def sh(cmd, timeout=None):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return 124, '', 'timeout after %ss' % timeout


# --- objects ---------------------------------------------------------------

def build_object(c, fam, level, skip=(), split=(), only=None):
    """The family's source for gfx1250 at -level, without the kernels in
    skip; with split, only the one-case kernels of those kernels; with
    only, that one kernel alone.  Returns (path or None, error)."""
    d = os.path.join(c.work, 'obj', level)
    if only:
        d = os.path.join(d, only)
    os.makedirs(d, exist_ok=True)
    tag = ('.split' if split else '') + ('.skip%d' % len(skip) if skip
                                         else '')
    o = os.path.join(d, fam + tag + '.o')
    co = os.path.join(d, fam + tag + '.co')
    cmd = [c.clang, '-x', 'cl', '-cl-std=CL1.2', '-target',
           'amdgcn-amd-amdhsa', '-mcpu=gfx1250', '-nogpulib',
           '-Xclang', '-finclude-default-header',
           '-Xclang', '-mlink-builtin-bitcode', '-Xclang', c.libclc,
           '-ffp-contract=off', '-' + level, '-c',
           os.path.join(c.gen, fam + '.cl'), '-o', o]
    cmd += ['-DSKIP_' + k for k in sorted(skip)]
    if split:
        cmd += ['-DONLY_SPLIT'] + ['-DSPLIT_' + k for k in sorted(split)]
    if only:
        cmd += ['-DONLY', '-DONLY_' + only]
    rc, out, err = sh(cmd)
    if rc:
        return None, 'clang: ' + err.strip()[:2000]
    rc, out, err = sh([c.lld, '-shared', o, '-o', co])
    if rc:
        return None, 'ld.lld: ' + err.strip()[:2000]
    return co, None


def raise_verdicts(c, co):
    """mirage --json raise: kernel -> None (raised) or its reason."""
    rc, out, err = sh([c.mirage, '--json', 'raise', co])
    try:
        doc = json.loads(out)
    except ValueError:
        return {}
    res = {}
    for k in doc.get('kernels', []):
        res[k['kernel']] = None if k.get('raised') else refusal(
            k, llvm_name(c, co, k.get('offset')) if k.get('mnemonic') ==
            '<unknown>' else None)
    return res


def llvm_name(c, co, offset):
    """llvm-objdump's mnemonic of the instruction at address offset of co: what
    an instruction mirage's decoder does not know is, or None."""
    try:
        a = int(offset, 16)
    except (TypeError, ValueError):
        return None
    rc, out, err = sh([c.objdump, '-d', '--start-address=%#x' % a,
                       '--stop-address=%#x' % (a + 1), co])
    for line in out.splitlines():
        if line.startswith('\t') and line.split():
            return line.split()[0]
    return None


def refusal(k, name=None):
    """A refusal of mirage's JSON as 'reason mnemonic [detail]' (an unknown
    instruction's detail is its encoding and LLVM's name for it); the summary
    counts it by what comes before the detail (judge())."""
    why = ('%s %s' % (k.get('reason') or '?', k.get('mnemonic', ''))).strip()
    detail = ', '.join(x for x in (k.get('detail'), name and 'LLVM: ' + name)
                       if x)
    return why + (' [%s]' % detail if detail else '')


# --- launches --------------------------------------------------------------

def out_count(k, cs):
    return k['n'] if cs['scalar_out'] else k['n'] * k['width']


def split_name(k, j):
    return '%s__%d' % (k['name'], j)


def write_launch(c, k, co, d, cases=None):
    """The launch of k (cases None) or of its split kernel for case
    cases[0], in d."""
    os.makedirs(d, exist_ok=True)
    bufs, args = {}, []
    for i, inp in enumerate(k['inputs']):
        size = k['n'] * k['width'] * ELEM[inp['type']]
        bufs['in%d' % i] = {'size': size, 'init': 'file:' + os.path.join(
            c.gen, inp['file'])}
        args.append({'buffer': 'in%d' % i})
    for j, cs in enumerate(k['cases']):
        if cases is not None and j not in cases:
            continue
        for o in cs['outs']:
            bufs[o['buffer']] = {
                'size': out_count(k, cs) * ELEM[o['type']],
                'init': 'fill:0xa5', 'output': o['buffer'] + '.bin'}
            args.append({'buffer': o['buffer']})
    args.append({'u32': k['n']})
    wg = c.manifest['workgroup']
    grid = (k['n'] + wg - 1) // wg * wg
    lf = {'code_object': co or 'none.co',
          'kernel': k['name'] if cases is None else split_name(k, cases[0]),
          'grid': [grid, 1, 1], 'workgroup': [wg, 1, 1], 'buffers': bufs,
          'args': args}
    path = os.path.join(d, 'launch.json')
    with open(path, 'w') as fh:
        json.dump(lf, fh)
    return path


def emulate(c, k, co, d, cases=None):
    """Runs k (or one case's split kernel) from co into d: None when it
    ran, else (kind, why)."""
    if os.path.isdir(d):
        shutil.rmtree(d)
    launch = write_launch(c, k, co, d, cases)
    rc, out, err = sh([c.mirage, 'emulate', launch], timeout=c.timeout)
    if rc == 0:
        return None
    msg = (err.strip().splitlines() or ['exit %d' % rc])[-1]
    msg = re.sub(r'^mirage: (error: )?', '', msg)
    if 'refused' in msg:
        return ('refused', msg)
    return ('fault', msg)


def run_pocl(c, fam, kernels):
    """POCL's outputs of the family's kernels under work/pocl/<kernel>."""
    lst = os.path.join(c.work, 'pocl', fam + '.list')
    os.makedirs(os.path.dirname(lst), exist_ok=True)
    lines = []
    for k in kernels:
        d = os.path.join(c.work, 'pocl', k['name'])
        if os.path.isdir(d):
            shutil.rmtree(d)
        lines.append('%s %s\n' % (write_launch(c, k, None, d), d))
    with open(lst, 'w') as fh:
        fh.writelines(lines)
    rc, out, err = sh([c.pocl_batch, os.path.join(c.gen, fam + '.cl'), lst])
    if rc == 77:
        return 'skip', err.strip()
    bad = {}
    for line in out.splitlines():
        if line.startswith('error '):
            bad[os.path.basename(os.path.dirname(line.split()[1]))] = line
    if rc not in (0, 1):
        return 'error', err.strip()[-2000:]
    return bad, err


def translate(c, fam, level, target, co, names, split=(), only=None):
    """mirage rewrite of a family's object for target.  A kernel the
    translator refuses fails the whole object, so it is left out of the
    source and the rest tried again.  Returns (object or None,
    {kernel: reason})."""
    refused = {}
    for attempt in range(8):
        src = co
        if refused:
            src, err = build_object(c, fam, level, skip=set(refused),
                                    split=split, only=only)
            if not src:
                return None, {n: 'rebuild failed: ' + err for n in names}
        out = os.path.join(os.path.dirname(co), '%s%s.%s.co' % (
            fam, '.split' if split else '', target))
        if os.path.exists(out):
            os.remove(out)
        rc, o, e = sh([c.mirage, '--json', 'rewrite', src, '-o', out,
                       '--target', target], timeout=c.timeout * 4)
        if rc == 0 and os.path.exists(out):
            return out, refused
        try:
            doc = json.loads(o)
        except ValueError:
            doc = {}
        new = {}
        for k in doc.get('kernel_results', []):
            if not k.get('translated'):
                new[k['name']] = refusal(k)
        if not new:
            why = (e.strip().splitlines() or ['exit %d' % rc])[-1]
            return None, dict(refused, **{n: 'mirage rewrite: ' + why
                                          for n in names
                                          if n not in refused})
        refused.update(new)
    return None, dict(refused, **{n: 'too many translation rounds'
                                  for n in names if n not in refused})


def run_alone(c, stage, lv, k, cases):
    """One kernel (or one case's split kernel) in an object of its own:
    its (status, why, output dir)."""
    name = k['name'] if cases is None else split_name(k, cases[0])
    split = {k['name']} if cases is not None else ()
    co, err = build_object(c, k['family'], lv, split=split, only=name)
    if not co:
        return ('fault', 'build: ' + err, None)
    if stage != 'gfx1250':
        co, refused = translate(c, k['family'], lv, stage, co, {name},
                                split=split, only=name)
        if name in refused:
            why = refused[name]
            return ('fault' if why.startswith('mirage rewrite:')
                    else 'refused', 'translate: ' + why[:300], None)
    why = raise_verdicts(c, co).get(name)
    if why:
        return ('refused', why, None)
    d = os.path.join(c.work, 'run', stage, lv, name)
    r = emulate(c, k, co, d, cases)
    return ('ran', None, d) if r is None else (r[0], r[1], None)


def run_stage_alone(c, pool, stage, lv, kernels):
    """run_stage with every kernel in an object of its own (--alone)."""
    res = {}
    futs = {k['name']: pool.submit(run_alone, c, stage, lv, k, None)
            for k in kernels}
    todo = []
    for k in kernels:
        st = futs[k['name']].result()
        for j in range(len(k['cases'])):
            res[(k['name'], j)] = st
        if st[0] != 'ran' and len(k['cases']) > 1:
            todo.append(k)
    futs = {(k['name'], j): pool.submit(run_alone, c, stage, lv, k, [j])
            for k in todo for j in range(len(k['cases']))}
    for key, fut in futs.items():
        res[key] = fut.result()
    return res


def run_stage(c, pool, stage, lv, fams, kernels, objs):
    """Every kernel of the stage: {(kernel, case index): (status, why,
    output dir)}; status ran, refused or fault.  A kernel that is refused
    or faults has its cases run one by one (its split kernels)."""
    res = {}
    for f in fams:
        fk = [k for k in kernels if k['family'] == f]
        for rnd in ('whole', 'split'):
            if rnd == 'whole':
                todo = fk
                co = objs[(f, lv)]
            else:
                todo = [k for k in fk if len(k['cases']) > 1 and any(
                    res[(k['name'], j)][0] != 'ran'
                    for j in range(len(k['cases'])))]
                if not todo:
                    break
                co, err = build_object(c, f, lv,
                                       split={k['name'] for k in todo})
                if not co:
                    sys.exit('builtins: %s split: %s' % (f, err))
            units = {}  # symbol -> (kernel, cases or None)
            for k in todo:
                if rnd == 'whole':
                    units[k['name']] = (k, None)
                else:
                    for j in range(len(k['cases'])):
                        units[split_name(k, j)] = (k, [j])
            status = {}
            if stage != 'gfx1250':
                co, refused = translate(c, f, lv, stage, co, set(units),
                                        split={k['name'] for k in todo}
                                        if rnd == 'split' else ())
                for name, why in refused.items():
                    if name in units:
                        # a translator that fails as a whole is a fault
                        status[name] = (
                            'fault' if why.startswith('mirage rewrite:')
                            else 'refused', 'translate: ' + why[:300])
            if co:
                verdicts = raise_verdicts(c, co)
                for name in units:
                    if name not in status and verdicts.get(name):
                        status[name] = ('refused', verdicts[name])
            else:
                for name in units:
                    status.setdefault(name, ('refused', 'not translated'))
            futs = {}
            for name, (k, cases) in units.items():
                if name in status:
                    continue
                d = os.path.join(c.work, 'run', stage, lv, name)
                futs[name] = (d, pool.submit(emulate, c, k, co, d, cases))
            for name, (d, fut) in futs.items():
                r = fut.result()
                status[name] = ('ran', None, d) if r is None else r
            for name, (k, cases) in units.items():
                st = status[name]
                for j in (cases or range(len(k['cases']))):
                    res[(k['name'], j)] = (st[0], st[1],
                                           st[2] if len(st) > 2 else None)
    return res


# --- comparison ------------------------------------------------------------

def read_vals(path, t, count):
    try:
        with open(path, 'rb') as fh:
            data = fh.read()
    except OSError:
        return None
    if len(data) != count * ELEM[t]:
        return None
    return list(struct.unpack('<%d%s' % (count, PACK[t]), data))


def show(t, v):
    if t in ('float', 'double'):
        x = gen.fval(t, v)
        return '%s (0x%0*x)' % (x.hex() if math.isfinite(x) else repr(x),
                                ELEM[t] * 2, v)
    return '%d (0x%x)' % (v, v & ((1 << (8 * ELEM[t])) - 1))


def same(o, t, want, got, inputs):
    cmp = o['cmp']
    if cmp in ('exact', 'bits'):
        return want == got
    if cmp == 'exact_if_finite':
        return want == got or not math.isfinite(
            gen.fval(inputs[0][0], inputs[0][1]))
    if cmp == 'quo7':
        # remquo's quo: the sign and the low seven bits of the quotient
        def q(v):
            return (v < 0, abs(v) & 0x7f)
        return q(want) == q(got)
    a, b = gen.fval(t, want), gen.fval(t, got)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if cmp == 'float_zero' and a == 0 and b == 0:
        return True
    return want == got


def compare_case(c, k, j, ref_dir, got_dir, corrupt=False):
    """None when case j of k gives POCL's outputs, else the lines that
    say how it differs."""
    ins = [read_vals(os.path.join(c.gen, i['file']), i['type'],
                     k['n'] * k['width']) for i in k['inputs']]
    cs = k['cases'][j]
    cnt = out_count(k, cs)
    outs = [(o, read_vals(os.path.join(ref_dir, o['buffer'] + '.bin'),
                          o['type'], cnt),
             read_vals(os.path.join(got_dir, o['buffer'] + '.bin'),
                       o['type'], cnt)) for o in cs['outs']]
    if any(w is None for _, w, _ in outs):
        return ['POCL wrote no %s' % cs['label']]
    if any(g is None for _, _, g in outs):
        return ['mirage wrote no %s' % cs['label']]
    if corrupt:
        outs[0][1][0] ^= 1  # one bit of POCL's first element
    lines, count = [], 0
    for e in range(cnt):
        lanes = range(e * k['width'], (e + 1) * k['width']) \
            if cs['scalar_out'] else [e]
        tup = [[(i['type'], ins[m][ln]) for m, i in enumerate(k['inputs'])]
               for ln in lanes]
        for o, w, g in outs:
            if o['cmp'] == 'quo7' and math.isnan(
                    gen.fval(outs[0][0]['type'], outs[0][1][e])):
                continue
            if not same(o, o['type'], w[e], g[e], tup[0]):
                count += 1
                if len(lines) < c.examples:
                    lines.append('%s(%s) = POCL %s, mirage %s [%s[%d]]' % (
                        cs['label'], '; '.join(', '.join(
                            show(t, v) for t, v in tp) for tp in tup),
                        show(o['type'], w[e]), show(o['type'], g[e]),
                        o['buffer'], e))
    if not count:
        return None
    return ['%d of %d elements differ' % (count, cnt)] + lines


# --- xfail -----------------------------------------------------------------

def load_xfail(path):
    """Lines 'STAGE LEVEL KERNEL CASE REASON...' ('*' matches any stage,
    level or case); '#' starts a comment."""
    entries = []
    if not path:
        return entries
    with open(path) as fh:
        for n, line in enumerate(fh, 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            f = line.split(None, 4)
            if len(f) < 5:
                sys.exit('%s:%d: expected STAGE LEVEL KERNEL CASE REASON' %
                         (path, n))
            entries.append({'stage': f[0], 'level': f[1], 'kernel': f[2],
                            'case': f[3], 'reason': f[4], 'line': n})
    return entries


def xfail_of(entries, stage, level, kernel, case):
    for e in entries:
        if (e['stage'] in ('*', stage) and e['level'] in ('*', level) and
                e['kernel'] == kernel and e['case'] in ('*', case)):
            return e
    return None


def nan_only(cs, d1, d2):
    """True when the outputs of case cs in d1 and d2 differ only where both
    are NaNs (a NaN's sign or payload, which the raiser does not model,
    docs/raiser.md)."""
    for o in cs['outs']:
        a = open(os.path.join(d1, o['buffer'] + '.bin'), 'rb').read()
        b = open(os.path.join(d2, o['buffer'] + '.bin'), 'rb').read()
        if a == b:
            continue
        t = o['type']
        if t not in ('float', 'double') or len(a) != len(b):
            return False
        n = len(a) // ELEM[t]
        for x, y in zip(struct.unpack('<%d%s' % (n, PACK[t]), a),
                        struct.unpack('<%d%s' % (n, PACK[t]), b)):
            if x != y and not (math.isnan(gen.fval(t, x)) and
                               math.isnan(gen.fval(t, y))):
                return False
    return True


def judge(c, stage, lv, kernels, res, pocl_bad, xfail, gfx1250=None,
          corrupt=None, verdicts=None):
    """(summary line, failures, report lines) of one stage.  With
    verdicts (a dict), verdicts[kernel] gets the kernel's verdict:
    {'whole': run whole, 'cases': {label: {'status': match, mismatch,
    fault, refused or unjudged, 'why', 'xfail': the xfail line's reason,
    'differs': None, 'nan' or 'bytes' (the gfx1250 run's outputs)}}}."""
    cnt = dict.fromkeys(('ran', 'match', 'refused', 'fault', 'mismatch',
                         'xfail', 'unjudged', 'differs'), 0)
    reasons, failures, report = {}, [], []
    whole = set()
    for k in kernels:
        name = k['name']
        if all(res[(name, j)][0] == 'ran' and res[(name, j)][2] ==
               os.path.join(c.work, 'run', stage, lv, name)
               for j in range(len(k['cases']))):
            whole.add(name)
        if verdicts is not None:
            verdicts[name] = {'whole': name in whole, 'cases': {}}
        for j, cs in enumerate(k['cases']):
            status, why, d = res[(name, j)]
            label = cs['label']
            v = {'status': status, 'why': why, 'xfail': None,
                 'differs': None}
            if verdicts is not None:
                verdicts[name]['cases'][label] = v
            head = '%s -%s %s %s (%s %s, width %d)' % (
                stage, lv, name, label, cs['builtin'],
                k['inputs'][0]['type'], k['width'])
            if status == 'refused':
                cnt['refused'] += 1
                key = re.sub(r'^kernel \S+ is refused at offset 0x[0-9a-f]+ ',
                             '', why)
                key = re.sub(r'\+0x[0-9a-f]+', '', key)
                key = re.sub(r' \[.*\]$', '', key)  # the detail (refusal())
                reasons[key] = reasons.get(key, 0) + 1
                report.append('refused %s: %s' % (head, why))
                continue
            cnt['ran'] += 1
            if name in pocl_bad:
                cnt['unjudged'] += 1
                report.append('unjudged %s: %s' % (head, pocl_bad[name]))
                v.update(status='unjudged', why=pocl_bad[name])
                continue
            if status == 'fault':
                lines, what = ['fault: ' + why], 'fault'
            else:
                lines, what = compare_case(
                    c, k, j, os.path.join(c.work, 'pocl', name), d,
                    corrupt == (name, j)), 'mismatch'
            if gfx1250 and status == 'ran' and gfx1250[(name, j)][0] == 'ran':
                d1 = gfx1250[(name, j)][2]
                if any(open(os.path.join(d1, o['buffer'] + '.bin'), 'rb')
                       .read() != open(os.path.join(d, o['buffer'] + '.bin'),
                                       'rb').read() for o in cs['outs']):
                    cnt['differs'] += 1
                    v['differs'] = 'nan' if nan_only(cs, d1, d) else 'bytes'
            x = xfail_of(xfail, stage, lv, name, label)
            v['xfail'] = x and x['reason']
            if not lines:
                cnt['match'] += 1
                v['status'] = 'match'
                if x:
                    failures.append(
                        'XPASS %s: now matches; remove line %d of the xfail '
                        'list (%s)' % (head, x['line'], x['reason']))
                continue
            cnt[what] += 1
            v.update(status=what, why=why if what == 'fault' else
                     '; '.join(lines[:2]))
            if x:
                cnt['xfail'] += 1
                report.append('xfail %s %s: %s' % (what, head, x['reason']))
            else:
                failures.append('%s %s' % (what, head))
            report += ['%s %s' % (what, head)] + ['  ' + ln for ln in lines]
    rs = ', '.join('%d %s' % (v, r) for r, v in
                   sorted(reasons.items(), key=lambda i: (-i[1], i[0])))
    n = sum(len(k['cases']) for k in kernels)
    line = ('builtins: %s -%s: %d kernels (%d run whole), %d cases: %d raised,'
            ' %d match, %d refused (%s), %d mismatch, %d fault (%d of them '
            'xfail), %d not judged' % (
                stage, lv, len(kernels), len(whole), n, cnt['ran'],
                cnt['match'], cnt['refused'], rs or 'none', cnt['mismatch'],
                cnt['fault'], cnt['xfail'], cnt['unjudged']))
    if gfx1250:
        line += '; %d differ from the gfx1250 run' % cnt['differs']
    return line, failures, report


def self_check(c, stage, lv, kernels, res, pocl_bad):
    """A flipped bit of POCL's output must be a mismatch, and an xfail
    entry for a matching case an XPASS."""
    out = []
    for k in kernels:
        j = 0
        st = res[(k['name'], j)]
        if st[0] == 'ran' and k['name'] not in pocl_bad and not \
                compare_case(c, k, j, os.path.join(
                    c.work, 'pocl', k['name']), st[2]):
            break
    else:
        return ['self-check: FAILED: no case matched']
    one = [k]
    res1 = {key: v for key, v in res.items() if key[0] == k['name']}
    label = k['cases'][0]['label']
    _, fails, _ = judge(c, stage, lv, one, res1, pocl_bad, [],
                        corrupt=(k['name'], 0))
    ok = any(f.startswith('mismatch %s -%s %s %s ' % (stage, lv, k['name'],
                                                       label)) for f in fails)
    out.append('self-check: %s: a flipped bit of POCL\'s %s %s output is %s'
               % ('ok' if ok else 'FAILED', k['name'], label,
                  'reported as a mismatch' if ok else 'NOT reported'))
    fake = [{'stage': '*', 'level': '*', 'kernel': k['name'], 'case': label,
             'reason': 'self-check', 'line': 0}]
    _, fails, _ = judge(c, stage, lv, one, res1, pocl_bad, fake)
    ok = any(f.startswith('XPASS') for f in fails)
    out.append('self-check: %s: an xfail entry for the matching %s %s is %s'
               % ('ok' if ok else 'FAILED', k['name'], label,
                  'reported as an XPASS' if ok else 'NOT reported'))
    return out


# --- the run ---------------------------------------------------------------

def write_kernel_report(c, kernels, stages, verdicts):
    """--kernel-report: judge()'s verdict of every kernel per level and
    stage, and the run's scope (which kernels each stage took: --filter for
    every stage, --rt-filter for the round trip's; a kernel a stage did not
    take is {'not_run': why}, a target not run at a level is in not_run), as
    JSON."""
    doc = {'set': c.manifest.get('set'),
           'manifest': [{'name': k['name'], 'family': k['family'],
                         'width': k['width'],
                         'cases': [cs['label'] for cs in k['cases']]}
                        for k in c.manifest['kernels']],
           'scope': {'filter': c.filter, 'rt_filter': c.rt_filter,
                     'alone': c.alone},
           'levels': {}}
    for stage, lv in stages:
        ks = dict(verdicts[(stage, lv)])
        for k in c.manifest['kernels']:
            # a kernel this stage did not take: {'not_run': why}
            if k['name'] in ks:
                continue
            if c.filter and not re.search(c.filter, k['name']):
                ks[k['name']] = {'not_run': "not matched by --filter '%s'" %
                                 c.filter}
            else:
                ks[k['name']] = {'not_run': "not matched by --rt-filter '%s'" %
                                 c.rt_filter}
        doc['levels'].setdefault(lv, {})[stage] = {
            'kernels': ks,
            'filter': c.filter,
            'rt_filter': c.rt_filter if stage != 'gfx1250' else None}
    targets = [x for x in c.targets.split(',') if x]
    doc['not_run'] = {
        lv: {t: "not in --targets '%s'" % c.targets
             for t in ('gfx942', 'gfx950') if t not in targets}
        for lv in sorted({lv for _, lv in stages})}
    path = c.kernel_report
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path + '.tmp', 'w') as fh:
        json.dump(doc, fh, indent=1, sort_keys=True)
        fh.write('\n')
    os.replace(path + '.tmp', path)

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--gen', required=True, help="gen.py's output directory")
    ap.add_argument('--work', required=True)
    ap.add_argument('--mirage', required=True)
    ap.add_argument('--pocl-batch', required=True)
    ap.add_argument('--clang', default='clang-22')
    ap.add_argument('--lld', default='ld.lld-22')
    ap.add_argument('--objdump', default='llvm-objdump-22',
                    help="names the instructions mirage's decoder does not "
                    'know')
    ap.add_argument('--libclc', default=LIBCLC)
    ap.add_argument('--levels', default='O0,O2,O3')
    ap.add_argument('--alone', default='',
                    help='the levels whose kernels each get an object of '
                    'their own (by default every level builds one object '
                    'per family)')
    ap.add_argument('--targets', default='gfx942,gfx950',
                    help="the round trip's targets ('' for none)")
    ap.add_argument('--xfail', help='the known failures (xfail.txt)')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--timeout', type=int, default=120)
    ap.add_argument('--examples', type=int, default=3)
    ap.add_argument('--filter', help='only kernels whose name matches')
    ap.add_argument('--rt-filter',
                    help="the round trip's stages: only kernels whose name "
                    'matches')
    ap.add_argument('--kernel-report', metavar='FILE.json',
                    help="every kernel's verdict per level and stage, for "
                    'tests/coverage/builtins.py')
    ap.add_argument('--self-check', action='store_true',
                    help='also check that a corrupted reference bit and a '
                    'passing xfail entry are reported')
    c = ap.parse_args()
    c.work = os.path.abspath(c.work)
    c.gen = os.path.abspath(c.gen)
    with open(os.path.join(c.gen, 'manifest.json')) as fh:
        c.manifest = json.load(fh)
    kernels = c.manifest['kernels']
    if c.filter:
        kernels = [k for k in kernels if re.search(c.filter, k['name'])]
    fams = sorted({k['family'] for k in kernels})
    levels = [x for x in c.levels.split(',') if x]
    targets = [x for x in c.targets.split(',') if x]
    xfail = load_xfail(c.xfail)
    os.makedirs(c.work, exist_ok=True)
    t0 = time.time()
    pool = concurrent.futures.ThreadPoolExecutor(max(1, c.jobs))

    # POCL, the truth: one build per family.
    pocl_bad = {}
    futs = {f: pool.submit(run_pocl, c, f, [k for k in kernels
                                            if k['family'] == f])
            for f in fams}
    alone = [x for x in c.alone.split(',') if x]
    for lv in levels:
        for f in fams:
            if lv not in alone:
                futs[(f, lv)] = pool.submit(build_object, c, f, lv)
    objs = {}
    for f in fams:
        r = futs[f].result()
        if r[0] == 'skip':
            log('builtins: skip: ' + r[1])
            return 77
        if r[0] == 'error':
            log('builtins: POCL could not build %s.cl: %s' % (f, r[1]))
            return 1
        pocl_bad.update(r[0])
    for lv in levels:
        for f in fams:
            if lv in alone:
                continue
            co, err = futs[(f, lv)].result()
            if not co:
                log('builtins: %s.cl at -%s does not build: %s' % (f, lv,
                                                                   err))
                return 1
            objs[(f, lv)] = co
    log('builtins: POCL ran %d kernels (%d not), %d objects built, %.0f s' % (
        len(kernels) - len(pocl_bad), len(pocl_bad), len(objs),
        time.time() - t0))

    results = {}
    stages = [('gfx1250', lv) for lv in levels] + \
        [(t, lv) for t in targets for lv in levels]
    summary, failures, report = [], [], []
    verdicts = {}
    for stage, lv in stages:
        ts = time.time()
        sk = kernels
        if stage != 'gfx1250' and c.rt_filter:
            sk = [k for k in kernels if re.search(c.rt_filter, k['name'])]
        if lv in alone:
            res = run_stage_alone(c, pool, stage, lv, sk)
        else:
            res = run_stage(c, pool, stage, lv, fams, sk, objs)
        results[(stage, lv)] = res
        verdicts[(stage, lv)] = {}
        line, f, r = judge(c, stage, lv, sk, res, pocl_bad, xfail,
                           results.get(('gfx1250', lv)) if stage != 'gfx1250'
                           else None, verdicts=verdicts[(stage, lv)])
        log(line + ' (%.0f s)' % (time.time() - ts))
        summary.append(line)
        failures += f
        report += r
    checks = []
    if c.self_check:
        checks = self_check(c, stages[0][0], stages[0][1], kernels,
                            results[stages[0]], pocl_bad)
    with open(os.path.join(c.work, 'report.txt'), 'w') as fh:
        fh.write('\n'.join(summary + report + checks) + '\n')
    if c.kernel_report:
        write_kernel_report(c, kernels, stages, verdicts)
    shown = 0
    for i, ln in enumerate(report):
        if ln.startswith(('mismatch ', 'fault ')) and \
                ln in {f for f in failures}:
            log('FAIL: ' + ln)
            for more in report[i + 1:]:
                if not more.startswith('  '):
                    break
                log(more)
            shown += 1
    for f in failures:
        if f.startswith('XPASS'):
            log('FAIL: ' + f)
    for ln in summary + checks:
        log(ln)
    log('builtins: %d failures (%d mismatch or fault, %d XPASS); the report: '
        '%s (%.0f s)' % (len(failures), shown, len(failures) - shown,
                         os.path.join(c.work, 'report.txt'),
                         time.time() - t0))
    if any('FAILED' in ln for ln in checks):
        return 1
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
