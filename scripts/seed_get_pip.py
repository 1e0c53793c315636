"""Seed ansible-test's get-pip.py cache so ``ansible-test --venv`` works offline.

Why this exists
---------------
When ``ansible-test ... --venv`` (and the sanity tests, which always use managed
virtual environments) creates a virtual environment, it creates it *without* pip
(``python -m venv --without-pip``) and then bootstraps pip by running a
``get-pip.py`` script.  The bootstrap lives in
``ansible_test/_util/target/setup/requirements.py``, function ``bootstrap()``,
and is identical in substance for ansible-core 2.16, 2.19 and 2.21::

    url = 'https://ci-files.testing.ansible.com/ansible-test/get-pip-%s.py' % pip_version
    cache_path = os.path.expanduser('~/.ansible/test/cache/get_pip_%s.py' % pip_version.replace(".", "_"))
    if os.path.exists(cache_path):
        log('Using cached pip %s bootstrap script: %s' ...)
    else:
        download_file(url, temp_path)   # <- ci-files.testing.ansible.com: unreachable here
    ...
    env.update(GET_PIP=cache_path)
    command = [sys.executable, quiet_pip.py, '--disable-pip-version-check',
               'pip==X' (2.16 also: 'setuptools==Y', 'wheel==Z'),
               (2.19+: '--no-setuptools', '--no-wheel')]

``quiet_pip.py`` then executes the cached file with
``runpy.run_module(<file stem>, run_name='__main__', alter_sys=True)`` so the file
sees those options in ``sys.argv[1:]``.  The cache path is consulted *before*
any download and no version checks a hash of the file (this script verifies
that, and refuses to seed a version whose source no longer matches).

The pip versions requested are taken from ``get_venv_packages()`` in
``ansible_test/_internal/python_requirements.py``:

    ansible-core 2.16.x : pip 23.1.2 (+ setuptools 67.7.2, wheel 0.37.1)  -> get_pip_23_1_2.py
    ansible-core 2.19.x : pip 24.2                                        -> get_pip_24_2.py
    ansible-core 2.21.x : pip 25.2                                        -> get_pip_25_2.py

What we seed
------------
A small script of our own (``BOOTSTRAP_SCRIPT`` below) that, in child processes:

1. installs the pip bundled with the interpreter via ``python -m ensurepip``;
2. uses that pip to install exactly the packages ansible-test asked for
   (``pip==X`` ...) from the configured package index (PyPI is reachable);
   if that fails (fully offline), it keeps the ensurepip pip and warns.

Usage
-----
    <venv>/bin/python scripts/seed_get_pip.py            # versions used by the ansible-test importable by this python
                                                         # (scripts/test does this for every matrix entry)
    python3 scripts/seed_get_pip.py --ansible-test DIR   # DIR = an installed ansible_test package directory (repeatable)
    python3 scripts/seed_get_pip.py --pip-version 24.2   # seed an explicit version (repeatable)
    ... --force                                          # also replace cache files we did not write
    ... --check                                          # only report; exit 1 if something is missing

Only the standard library; Python 3.7+.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import tempfile

CACHE_TEMPLATE_DEFAULT = '~/.ansible/test/cache/get_pip_%s.py'
MARKER = 'written by strata.hier scripts/seed_get_pip.py'
SCRIPT_VERSION = 2  # bump when BOOTSTRAP_SCRIPT changes (files are compared whole anyway)

BOOTSTRAP_SCRIPT = '''\
"""Stand-in for get-pip.py used by ansible-test's pip bootstrap.

# MARKER: {marker} (version {version})

Written by scripts/seed_get_pip.py (strata.hier).  ansible-test runs this file as
__main__ with sys.argv[1:] = pip options and requirement specifiers, for example
['--disable-pip-version-check', 'pip==24.2', '--no-setuptools', '--no-wheel'].
We install pip from the interpreter's bundled wheel (ensurepip) and then install
the requested packages with it, each step in a child process.
"""

import os
import subprocess
import sys

# get-pip.py specific flags that `pip install` does not understand
_GET_PIP_ONLY = ('--no-setuptools', '--no-wheel', '--no-pip')


def _log(msg):
    sys.stderr.write('[seeded get-pip] %s\\n' % msg)
    sys.stderr.flush()


def _installed(module, env):
    probe = 'import importlib.util, sys; sys.exit(0 if importlib.util.find_spec(sys.argv[1]) else 1)'
    return subprocess.call([sys.executable, '-c', probe, module], env=env) == 0


def main():
    args = [a for a in sys.argv[1:] if a not in _GET_PIP_ONLY]
    env = dict(os.environ)
    env.pop('GET_PIP', None)
    env.pop('PYTHONPATH', None)

    subprocess.check_call([sys.executable, '-m', 'ensurepip', '--default-pip'], env=env)

    specs = [a for a in args if not a.startswith('-')]
    if not specs:
        return

    cmd = [sys.executable, '-m', 'pip', 'install', '--quiet'] + args
    try:
        subprocess.check_call(cmd, env=env)
    except subprocess.CalledProcessError as ex:
        # Without an index we still have a working pip from ensurepip, which is
        # all ansible-test needs; the pinned versions only add reproducibility.
        _log('WARNING: %s failed (exit %s); keeping the pip installed by ensurepip' % (' '.join(cmd), ex.returncode))

    # get-pip.py --no-setuptools / --no-wheel: do not leave behind what
    # ensurepip brought along (Python < 3.12 bundles setuptools).
    unwanted = [name for flag, name in (('--no-setuptools', 'setuptools'), ('--no-wheel', 'wheel'))
                if flag in sys.argv[1:] and _installed(name, env)]
    if unwanted:
        subprocess.call([sys.executable, '-m', 'pip', 'uninstall', '--yes', '--quiet'] + unwanted, env=env)


if __name__ == '__main__':
    main()
'''.format(marker=MARKER, version=SCRIPT_VERSION)


class SeedError(Exception):
    pass


def read(path):
    with open(path, encoding='utf-8') as f:
        return f.read()


def function_source(text, name):
    """Return the source of top-level function `name` (up to the next top-level statement)."""
    m = re.search(r'^def %s\(.*?(?=^\S)' % re.escape(name), text, re.M | re.S)
    if not m:
        raise SeedError('function %s() not found' % name)
    return m.group(0)


def inspect_ansible_test(pkg_dir):
    """Return (cache_template, [pip versions]) for an installed ansible_test package directory."""
    req_py = os.path.join(pkg_dir, '_util', 'target', 'setup', 'requirements.py')
    pyreq_py = os.path.join(pkg_dir, '_internal', 'python_requirements.py')
    for p in (req_py, pyreq_py):
        if not os.path.isfile(p):
            raise SeedError('%s: missing %s' % (pkg_dir, p))

    boot = function_source(read(req_py), 'bootstrap')
    m = re.search(r"cache_path\s*=\s*os\.path\.expanduser\(\s*'([^']*%s[^']*)'\s*%\s*pip_version\.replace\(\s*[\"']\.[\"']\s*,\s*[\"']_[\"']\s*\)\s*\)", boot)
    if not m:
        raise SeedError('%s: bootstrap() no longer computes the cache path the way this script expects; '
                        'read it and update scripts/seed_get_pip.py' % req_py)
    template = m.group(1)
    if not re.search(r'if os\.path\.exists\(cache_path\)', boot):
        raise SeedError('%s: bootstrap() does not check the cache before downloading any more' % req_py)
    if re.search(r'sha256|hashlib|checksum|digest', boot):
        raise SeedError('%s: bootstrap() now verifies the downloaded script; '
                        'scripts/seed_get_pip.py must be updated to satisfy that check' % req_py)

    pkgs = function_source(read(pyreq_py), 'get_venv_packages')
    versions = sorted(set(re.findall(r"\bpip\s*=\s*'([0-9][0-9A-Za-z.]*)'", pkgs)))
    if not versions:
        raise SeedError('%s: no pip version found in get_venv_packages()' % pyreq_py)
    return template, versions


def importable_ansible_test():
    try:
        import ansible_test  # noqa: F401  pylint: disable=import-outside-toplevel
    except ImportError:
        return None
    return os.path.dirname(os.path.abspath(ansible_test.__file__))


def cache_path(template, version):
    return os.path.expanduser(template % version.replace('.', '_'))


def seed(path, force, check):
    """Return a short status word."""
    if os.path.exists(path):
        try:
            current = read(path)
        except (OSError, UnicodeDecodeError):
            current = ''
        if current == BOOTSTRAP_SCRIPT:
            return 'ok'
        if MARKER not in current and not force:
            return 'foreign (left alone; --force replaces it)'
        if check:
            return 'stale'
    elif check:
        return 'missing'

    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix='.seed-', suffix='.py', dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, 'w', encoding='utf-8') as f:
            f.write(BOOTSTRAP_SCRIPT)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)  # atomic: concurrent ansible-test runs never see a partial file
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return 'seeded'


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n', maxsplit=1)[0])
    ap.add_argument('--ansible-test', action='append', default=[], metavar='DIR',
                    help='installed ansible_test package directory to read (repeatable)')
    ap.add_argument('--pip-version', action='append', default=[], metavar='VER',
                    help='also seed this pip version (repeatable)')
    ap.add_argument('--force', action='store_true', help='replace cache files not written by this script')
    ap.add_argument('--check', action='store_true', help='report only; exit 1 if anything is missing')
    ap.add_argument('-q', '--quiet', action='store_true')
    opts = ap.parse_args(argv)

    dirs = list(opts.ansible_test)
    if not dirs and not opts.pip_version:
        found = importable_ansible_test()
        if not found:
            ap.error('ansible_test is not importable by %s; pass --ansible-test DIR or --pip-version VER' % sys.executable)
        dirs.append(found)

    targets = {}  # path -> description
    try:
        for d in dirs:
            template, versions = inspect_ansible_test(d)
            for v in versions:
                targets.setdefault(cache_path(template, v), 'pip %s (%s)' % (v, d))
    except SeedError as ex:
        print('seed_get_pip: ERROR: %s' % ex, file=sys.stderr)
        return 2
    for v in opts.pip_version:
        targets.setdefault(cache_path(CACHE_TEMPLATE_DEFAULT, v), 'pip %s' % v)

    rc = 0
    for path in sorted(targets):
        status = seed(path, opts.force, opts.check)
        if status in ('missing', 'stale'):
            rc = 1
        if not opts.quiet or status not in ('ok', 'seeded'):
            word, _sep, detail = status.partition(' ')
            print('seed_get_pip: %-8s %s  [%s]%s' % (word, path, targets[path], '  ' + detail if detail else ''))
    return rc


if __name__ == '__main__':
    sys.exit(main())
