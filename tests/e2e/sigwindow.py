#!/usr/bin/env python3
"""Sends a signal to a command while a temporary file of its exists.

sigwindow.py DIR PREFIX SIGNAL CMD...

Runs CMD (its stdout and stderr inherited), watches DIR for an entry whose
name starts with PREFIX, stops CMD with SIGSTOP as soon as one appears and,
when the entry is still there once every thread has stopped, sends SIGNAL
and SIGCONT: the signal is delivered while the file exists, whatever the
scheduler does.  Prints "hit" when it was sent so, "miss" when CMD ended
or the entry had gone first, then CMD's wait status: "signal SIGNAME" or
"exit N".
"""
import os, signal, subprocess, sys, time

d, prefix, sig = sys.argv[1], sys.argv[2], getattr(signal, 'SIG' + sys.argv[3])
# the signal's default action, whatever this test was started with (a
# background job of a shell without job control ignores SIGINT and SIGQUIT)
signal.signal(sig, signal.SIG_DFL)
p = subprocess.Popen(sys.argv[4:])


def present():
    try:
        return any(n.startswith(prefix) for n in os.listdir(d))
    except FileNotFoundError:
        return False


def stopped():
    try:
        for t in os.listdir('/proc/%d/task' % p.pid):
            with open('/proc/%d/task/%s/stat' % (p.pid, t)) as f:
                if f.read().rsplit(')', 1)[1].split()[0] not in 'Tt':
                    return False
    except (FileNotFoundError, ProcessLookupError):
        pass
    return True


hit = False
while p.poll() is None:
    if not present():
        continue
    os.kill(p.pid, signal.SIGSTOP)
    deadline = time.monotonic() + 10
    while not stopped() and time.monotonic() < deadline:
        time.sleep(0.001)
    if present():
        os.kill(p.pid, sig)
        hit = True
    os.kill(p.pid, signal.SIGCONT)
    break
try:
    rc = p.wait(timeout=120)
except subprocess.TimeoutExpired:
    # a run that neither died of the signal nor ended: say so, not a silent
    # test timeout
    p.kill()
    p.wait()
    print('hang', 'after SIG' + sys.argv[3], ' '.join(sys.argv[4:]))
    sys.exit(0)
print('hit' if hit else 'miss', 'signal ' + signal.Signals(-rc).name if rc < 0 else 'exit %d' % rc)
