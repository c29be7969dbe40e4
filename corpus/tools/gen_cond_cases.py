#!/usr/bin/env python3
"""Writes the condition-family cases of corpus/cases/: one loop per (condition, width, step,
start, form), with the trip count and header range computed by simulating the ISA semantics here
in Python — a reference independent of the analyzer.  Re-run after changing the family; the
files are committed so the corpus does not depend on this script at test time."""
import os, sys

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'cases')
M64 = (1 << 64) - 1
M32 = (1 << 32) - 1

def s(v, w):
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v

OPS = {
    '<':  lambda a, b, w: a < b,   '<=': lambda a, b, w: a <= b,
    '>':  lambda a, b, w: a > b,   '>=': lambda a, b, w: a >= b,
    's<': lambda a, b, w: s(a, w) < s(b, w), 's<=': lambda a, b, w: s(a, w) <= s(b, w),
    's>': lambda a, b, w: s(a, w) > s(b, w), 's>=': lambda a, b, w: s(a, w) >= s(b, w),
    '==': lambda a, b, w: a == b,  '!=': lambda a, b, w: a != b,
}
NEG = {'<': '>=', '<=': '>', '>': '<=', '>=': '<', 's<': 's>=', 's<=': 's>', 's>': 's<=',
       's>=': 's<', '==': '!=', '!=': '=='}
NAME = {'<': 'lt', '<=': 'le', '>': 'gt', '>=': 'ge', 's<': 'slt', 's<=': 'sle', 's>': 'sgt',
        's>=': 'sge', '==': 'eq', '!=': 'ne'}

def simulate(form, ctr32, cmp32, start, step, bound, op, limit=1 << 21):
    """Header executions and the set hull of the counter at the header, or None when the loop
    does not end within limit."""
    w = 32 if cmp32 else 64
    v = start & (M32 if ctr32 else M64)
    lo = hi = None
    n = 0
    while n < limit:
        n += 1
        lo = v if lo is None else min(lo, v)
        hi = v if hi is None else max(hi, v)
        if form == 'pre':
            a = v & ((1 << w) - 1)
            if not OPS[op](a, bound & ((1 << w) - 1), w):   # while (v op N)
                return n, lo, hi
        v = (v + step) & (M32 if ctr32 else M64)
        if form == 'post':
            a = v & ((1 << w) - 1)
            if not OPS[op](a, bound & ((1 << w) - 1), w):   # do ... while (v op N)
                return n, lo, hi
    return None

def imm_ok(x):
    return -(1 << 31) <= x < (1 << 31)

def emit(name, form, ctr32, cmp32, start, step, bound, op):
    r = simulate(form, ctr32, cmp32, start, step, bound, op)
    if r is None and form == 'post' and op == '!=' and step & 1:
        # closed form: the k-th update hits the bound when start + k*step = N (mod 2^w); the
        # counter takes every value of its w-bit space in 2^w steps, so the hull is all of it
        w = 32 if cmp32 else 64
        k = ((bound - start) * pow(step, -1, 1 << w)) % (1 << w)
        r = (k, 0, (1 << w) - 1)
    if r is None:
        return False
    trips, lo, hi = r
    lines = []
    reg = 'w' if ctr32 else 'r'
    creg = 'w' if cmp32 else 'r'
    # start value: the 64-bit pattern, written so it assembles exactly
    sv = start & (M32 if ctr32 else M64)
    if ctr32:
        lines.append('w1 = %d' % s(sv, 32))
    elif imm_ok(s(sv, 64)):
        lines.append('r1 = %d' % s(sv, 64))
    else:
        lines.append('r1 = %#x ll' % sv)
    stepw = 32 if ctr32 else 64
    st = s(step, stepw)
    if imm_ok(st):
        upd = '%s1 += %d' % (reg, st)
    else:
        lines.append('r2 = %#x ll' % (step & M64))
        upd = '%s1 += %s2' % (reg, reg)
    bw = 32 if cmp32 else 64
    bs = s(bound, bw)
    if imm_ok(bs) and (cmp32 or True):
        rhs = '%d' % bs
    else:
        lines.append('r3 = %#x ll' % (bound & M64))
        rhs = '%s3' % creg
    lines.append('r0 = 0')
    header = len([l for l in lines if not l.endswith(' ll')]) + 2 * len([l for l in lines if l.endswith(' ll')])
    if form == 'post':
        lines += ['l: r0 += 1', upd, 'if %s1 %s %s goto l' % (creg, op, rhs), 'exit']
        exit_pc = header + 3
        hdr_range_pc = header
    else:
        lines += ['l: if %s1 %s %s goto out' % (creg, NEG[op], rhs), 'r0 += 1', upd, 'goto l',
                  'out: exit']
        hdr_range_pc = header
    text = ['# %s: %s loop, %d-bit counter, %d-bit test "%s", start %#x step %d bound %#x' %
            (name, 'do-while' if form == 'post' else 'while', 32 if ctr32 else 64,
             32 if cmp32 else 64, op, sv, st, bound),
            '# expected values simulated by corpus/tools/gen_cond_cases.py', '-- asm'] + lines
    text += ['-- trip', '%d: exact %d' % (header, trips)]
    text += ['-- iv', '%d: r1 %d step=%d start=%d' % (header, 32 if ctr32 else 64, st if ctr32 else st, sv)]
    if hi - lo < (1 << 62):
        text += ['-- range', '%d r1: u[%d, %d]' % (hdr_range_pc, lo, hi)]
    with open(os.path.join(OUT, name + '.case'), 'w') as f:
        f.write('\n'.join(text) + '\n')
    return True

def main():
    n = 0
    cases = []
    # every condition, both forms, counting toward the bound
    for op in OPS:
        up = op in ('<', '<=', 's<', 's<=', '!=')
        for form in ('post', 'pre'):
            if op == '==':
                cases.append(('%s_%s_eq_once' % (form, NAME[op]), form, False, False, 5, 1, 5 if form == 'pre' else 6, op))
                continue
            st = 1 if up else -1
            lim = 100 if up else (1 if op == '>=' else 0)   # unsigned v >= 0 never fails
            cases.append(('%s_%s_64' % (form, NAME[op]), form, False, False, 0 if up else 100, st, lim, op))
            cases.append(('%s_%s_32' % (form, NAME[op]), form, True, True, 0 if up else 100, st, lim, op))
    # steps of several sizes and signs
    for st in (3, -3, 7, 1000):
        cases.append(('post_lt_step%d' % st if st > 0 else 'post_sgt_stepm%d' % -st, 'post', False, False,
                      0 if st > 0 else 200, st, 200 if st > 0 else 0, '<' if st > 0 else 's>'))
    # large and negative steps
    cases.append(('post_lt_step_large', 'post', False, False, 0, 1 << 40, 5 << 40, '<'))
    cases.append(('post_sgt_negative', 'post', False, False, 0, -5, -100, 's>'))
    # != that terminates with a step dividing the distance, and through a wrap (odd step)
    cases.append(('post_ne_step4', 'post', False, False, 0, 4, 100, '!='))
    cases.append(('post_ne32_wrap_odd', 'post', True, True, 0, 3, 1, '!='))
    # starts near the wrap points
    cases.append(('post_lt_near_u32max', 'post', True, True, 0xfffffff0, 1, 0xfffffffe, '<'))
    cases.append(('post_slt_near_s32max', 'post', True, True, 0x7ffffff0, 1, 0x7ffffffe, 's<'))
    # s> 0 counting up: leaves when the counter steps over INT64_MAX and turns negative
    cases.append(('post_sgt_up_through_s64max', 'post', False, False, 0x7ffffffffffffff0, 1, 0, 's>'))
    cases.append(('post_ne32_wrap_through_zero', 'post', True, True, 0xfffffff0, 1, 8, '!='))
    # < a bound near 2^64 counting down: leaves when the counter wraps below zero
    cases.append(('post_lt_down_through_zero', 'post', False, False, 5, -1, 0xfffffffffffffff0, '<'))
    cases.append(('pre_slt_negative_start', 'pre', False, False, -10, 1, 5, 's<'))
    cases.append(('post_lt_mixed_jmp32_on_64', 'post', False, True, 0x100000000, 1, 10, '<'))
    cases.append(('post_lt_jmp_on_32ctr', 'post', True, False, 0, 2, 50, '<'))
    for c in cases:
        if emit(*c):
            n += 1
        else:
            print('skipped (does not end in the simulation limit):', c[0], file=sys.stderr)
    print('wrote %d cases' % n)

if __name__ == '__main__':
    main()
