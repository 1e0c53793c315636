#!/usr/bin/env python
"""Checks what ansible-builder needs from strata.hier (the "ee" step of scripts/test).

    .venvs/tools/bin/python scripts/check_ee.py [COLLECTION_ROOT]

Run with the tools venv's Python (ansible-core, ansible-builder: see ensure_tools_venv in scripts/_lib.sh):
- meta/execution-environment.yml has the collection-level schema and names files that exist and are built
  into the tarball (not in galaxy.yml's build_ignore);
- the Python requirements it names are exactly the third-party packages plugins/ imports (less those that ship
  with ansible-core), without pins or upper bounds, without ansible-core;
- `ansible-builder introspect` over the collection installed from its built tarball lists them;
- docs/execution-environment.yml, the example for users, passes ansible-builder's schema and
  `ansible-builder create`, and installs strata.hier.
Prints one line per check; exits 1 when one fails.
"""

import ast
import fnmatch
import os
import re
import subprocess
import sys
import tempfile

import yaml
from ansible_builder.ee_schema import validate_schema

# import name -> distribution name, for the third-party packages the plugins may import
DISTRIBUTIONS = {'jmespath': 'jmespath', 'yaml': 'pyyaml', 'jinja2': 'jinja2', 'cryptography': 'cryptography'}
WITH_ANSIBLE_CORE = {'pyyaml', 'jinja2'}     # ansible-core's own dependencies, in every image with ansible-core
BIN = os.path.dirname(sys.executable)
FAILURES = []


def check(ok, what):
    print('%s  %s' % ('ok  ' if ok else 'FAIL', what))
    if not ok:
        FAILURES.append(what)
    return ok


def load_yaml(path):
    with open(path, encoding='utf-8') as handle:
        return yaml.safe_load(handle)


def build_ignored(root, relative):
    patterns = load_yaml(os.path.join(root, 'galaxy.yml')).get('build_ignore') or []
    return any(fnmatch.fnmatch(relative, pattern) or relative.startswith(pattern.rstrip('/') + '/')
               for pattern in patterns)


def check_meta(root):
    """meta/execution-environment.yml -> the requirements file it names (relative), or None."""
    meta = load_yaml(os.path.join(root, 'meta', 'execution-environment.yml'))
    check(isinstance(meta, dict) and set(meta) <= {'version', 'dependencies'} and meta.get('version') == 1,
          'meta/execution-environment.yml: version 1, only version and dependencies')
    dependencies = meta.get('dependencies') if isinstance(meta, dict) else None
    if not check(isinstance(dependencies, dict) and set(dependencies) <= {'python', 'system'}
                 and 'python' in dependencies, 'meta/execution-environment.yml: dependencies has python (and system)'):
        return None
    for kind, name in sorted(dependencies.items()):
        check(os.path.isfile(os.path.join(root, name)), '%s requirements %s exist' % (kind, name))
        check(not build_ignored(root, name), '%s requirements %s are not in build_ignore' % (kind, name))
    return dependencies['python']


def requirement_names(path):
    names = {}
    with open(path, encoding='utf-8') as handle:
        for line in handle:
            line = re.sub(r'(^|\s)#.*$', '', line).strip()
            if line:
                names[re.split(r'[\s<>=!~;\[]', line, maxsplit=1)[0].lower().replace('_', '-')] = line
    return names


def third_party_imports(root):
    found = set()
    for folder, dummy, files in os.walk(os.path.join(root, 'plugins')):
        for name in files:
            if name.endswith('.py'):
                with open(os.path.join(folder, name), encoding='utf-8') as handle:
                    found.update(_top_level_imports(ast.parse(handle.read())))
    return {name for name in found if name not in sys.stdlib_module_names
            and name not in ('ansible', 'ansible_collections', '__future__')}


def _top_level_imports(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name.split('.')[0]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module.split('.')[0]


def check_requirements(root, relative):
    names = requirement_names(os.path.join(root, relative))
    imports = third_party_imports(root)
    unknown = sorted(name for name in imports if name not in DISTRIBUTIONS)
    check(not unknown, 'every third-party import of plugins/ is known here (unknown: %s)' % (unknown or 'none'))
    wanted = {DISTRIBUTIONS[name] for name in imports if name in DISTRIBUTIONS} - WITH_ANSIBLE_CORE
    check(set(names) == wanted, '%s lists exactly %s (has %s)' % (relative, sorted(wanted), sorted(names)))
    check(not {'ansible', 'ansible-core'} & set(names), '%s does not list ansible-core' % relative)
    capped = sorted(line for line in names.values() if re.search(r'==|<|~=', line))
    check(not capped, '%s has no pins or upper bounds (%s)' % (relative, capped or 'none'))
    return sorted(names.values())     # the requirements as written (a minimum version too): what introspect lists


def run(*command, cwd=None):
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    if result.returncode:
        print(result.stdout + result.stderr)
    return result


def check_introspect(root, wanted):
    with tempfile.TemporaryDirectory() as work:
        built = run(os.path.join(BIN, 'ansible-galaxy'), 'collection', 'build', root, '--output-path', work)
        tarballs = [name for name in os.listdir(work) if name.endswith('.tar.gz')]
        if not check(built.returncode == 0 and len(tarballs) == 1, 'ansible-galaxy collection build'):
            return
        installed = os.path.join(work, 'collections')
        run(os.path.join(BIN, 'ansible-galaxy'), 'collection', 'install', '--offline', '-p', installed,
            os.path.join(work, tarballs[0]))
        result = run(os.path.join(BIN, 'ansible-builder'), 'introspect', '--sanitize', installed)
        listed = yaml.safe_load(re.sub(r'(?m)^#.*$', '', result.stdout)) or {} if result.returncode == 0 else {}
        expected = ['%s  # from collection strata.hier' % name for name in wanted]
        check(sorted(listed.get('python') or []) == expected,
              'ansible-builder introspect of the installed tarball lists %s (got %s)' % (expected, listed.get('python')))
        check(not listed.get('system'), 'ansible-builder introspect lists no system packages')


def check_user_example(root):
    path = os.path.join(root, 'docs', 'execution-environment.yml')
    example = load_yaml(path)
    try:
        validate_schema(example)
        valid = True
    except Exception as exc:  # ansible-builder's DefinitionError, jsonschema's ValidationError
        print(exc)
        valid = False
    check(valid and example.get('version') == 3, 'docs/execution-environment.yml: ansible-builder schema version 3')
    collections = ((example.get('dependencies') or {}).get('galaxy') or {}).get('collections') or []
    check(any(isinstance(item, dict) and item.get('name') == 'strata.hier' for item in collections),
          'docs/execution-environment.yml installs strata.hier')
    with tempfile.TemporaryDirectory() as context:
        result = run(os.path.join(BIN, 'ansible-builder'), 'create', '--file', path, '--context', context)
        check(result.returncode == 0 and os.path.isfile(os.path.join(context, '_build', 'requirements.yml')),
              'ansible-builder create --file docs/execution-environment.yml')


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), '..'))
    relative = check_meta(root)
    if relative:
        wanted = check_requirements(root, relative)
        check_introspect(root, wanted)
    check_user_example(root)
    print('%d check(s) failed' % len(FAILURES) if FAILURES else 'execution environment: all checks passed')
    return 1 if FAILURES else 0


if __name__ == '__main__':
    sys.exit(main())
