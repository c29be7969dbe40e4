#!/usr/bin/env python3
"""The test suite's CPU, test by test: every ctest of a build directory is run as ctest would run
it (its command, working directory and environment, from `ctest --show-only=json-v1`), and its
process CPU time (user + sys of the test and every child it waited for: os.wait4) is written to
a CSV with its wall time and exit code.  CPU time depends on the machine's load far less than
the wall time (3-6x on a shared machine), though by ~15-20% between load 15 and 5 still:
balance and compare the suite by it, at like loads
(docs/BENCHMARKS.md "The test run (session 29)", tests/CMakeLists.txt test_costs).

  bench/test_cpu.py BUILD OUT.csv [-j N] [-R REGEX] [-E REGEX] [--order PREVIOUS.csv]
  bench/test_cpu.py --table OUT.csv [N]     the N (40) costliest tests and the totals, markdown

-j runs N tests at once (default 2; the CPU figures do not depend on it); --order starts the
tests in the order of an earlier CSV's CPU, costliest first.  ASAN_OPTIONS and UBSAN_OPTIONS
default to scripts/setup test's.  Each test's output goes to OUT.csv's directory, logs/NAME.log.
"""
import argparse
import csv
import json
import os
import re
import subprocess
import sys
import threading
import time


def table(path, top):
    rows = list(csv.DictReader(open(path)))
    for r in rows:
        r['cpu'] = float(r['user']) + float(r['sys'])
    total = sum(r['cpu'] for r in rows) or 1.0
    groups = {}
    for r in rows:
        g = r['name'].split('/')[0] + '/*' if r['name'].startswith(('corpus/', 'conformance/')) \
            else 'the others'
        n, c = groups.get(g, (0, 0.0))
        groups[g] = (n + 1, c + r['cpu'])
    rows.sort(key=lambda r: -r['cpu'])
    print('| # | test | CPU s | user + sys | share |')
    print('|---:|---|---:|---:|---:|')
    for i, r in enumerate(rows[:top]):
        print('| %d | %s | %.1f | %.1f + %.1f | %.1f%% |' % (
            i + 1, r['name'], r['cpu'], float(r['user']), float(r['sys']),
            100 * r['cpu'] / total))
    print()
    print('%d tests, %.0f CPU s (user %.0f + sys %.0f); not passed: %s' % (
        len(rows), total, sum(float(r['user']) for r in rows),
        sum(float(r['sys']) for r in rows),
        ', '.join(r['name'] for r in rows if r['rc'] not in ('0', '77')) or 'none'))
    for g, (n, c) in sorted(groups.items()):
        print('- %s: %d tests, %.0f CPU s' % (g, n, c))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--table':
        table(sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 40)
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument('build')
    ap.add_argument('out')
    ap.add_argument('-j', type=int, default=2)
    ap.add_argument('-R')
    ap.add_argument('-E')
    ap.add_argument('--order')
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    shown = json.loads(subprocess.check_output(['ctest', '--show-only=json-v1'], cwd=build))
    tests = []
    for t in shown['tests']:
        name = t['name']
        if (a.R and not re.search(a.R, name)) or (a.E and re.search(a.E, name)):
            continue
        if 'command' not in t:
            continue
        env = dict(os.environ)
        env.setdefault('ASAN_OPTIONS', 'detect_leaks=0:abort_on_error=1')
        env.setdefault('UBSAN_OPTIONS', 'print_stacktrace=1:halt_on_error=1')
        wd = os.path.join(build, 'tests')
        for p in t.get('properties', []):
            if p['name'] == 'ENVIRONMENT':
                for kv in p['value']:
                    k, v = kv.split('=', 1)
                    env[k] = v
            elif p['name'] == 'WORKING_DIRECTORY':
                wd = p['value']
        tests.append((name, t['command'], env, wd))
    if a.order:
        prev = {r['name']: float(r['user']) + float(r['sys']) for r in csv.DictReader(open(a.order))}
        tests.sort(key=lambda t: -prev.get(t[0], 0.0))
    logs = os.path.join(os.path.dirname(os.path.abspath(a.out)), 'logs')
    os.makedirs(logs, exist_ok=True)
    out = open(a.out, 'w')
    out.write('name,user,sys,wall,rc\n')
    out.flush()
    lock = threading.Lock()
    queue = list(reversed(tests))

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                name, cmd, env, wd = queue.pop()
            t0 = time.time()
            with open(os.path.join(logs, name.replace('/', '_') + '.log'), 'w') as lf:
                p = subprocess.Popen(cmd, env=env, cwd=wd, stdout=lf, stderr=subprocess.STDOUT)
                _, status, ru = os.wait4(p.pid, 0)
            with lock:
                out.write('%s,%.3f,%.3f,%.3f,%d\n' % (name, ru.ru_utime, ru.ru_stime,
                                                       time.time() - t0,
                                                       os.waitstatus_to_exitcode(status)))
                out.flush()

    t0, load0 = time.time(), os.getloadavg()
    threads = [threading.Thread(target=worker) for _ in range(max(a.j, 1))]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    print('%d tests, %.0f s wall, load average %.1f at the start, %.1f at the end' % (
        len(tests), time.time() - t0, load0[0], os.getloadavg()[0]))
    return 0


if __name__ == '__main__':
    sys.exit(main())
