# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The shape of the code under plugins/ (issue 27, docs/developing.md's layout and style rules): functions of at most
40 lines and cyclomatic complexity 15 (counted as radon counts it); one value-type style: no dataclass, no named
tuple outside the regex analysis (``Record`` for immutable values, plain classes for working objects); the layout's
imports: ``module_utils`` only the standard library, the core no dialect, no module or package importing itself back
(imports for type checking only apart: they run in no process), every helper module used by shipped code."""

from __future__ import annotations

import ast
import os
import sys

PLUGINS = os.path.join(os.path.dirname(__file__), '..', '..', '..', '..', 'plugins')
MAX_LINES = 40
MAX_COMPLEXITY = 15

# The regex analysis builds a tuple per part of a pattern from data, under the fuzz oracle's bound on lines run.
NAMED_TUPLES_ALLOWED = frozenset(('module_utils/core/safe_regex.py',))


def _modules():
    for folder, _dirs, files in os.walk(PLUGINS):
        for name in sorted(files):
            if name.endswith('.py'):
                path = os.path.join(folder, name)
                with open(path, encoding='utf-8') as handle:
                    yield os.path.relpath(path, PLUGINS), ast.parse(handle.read(), path)


def _functions(tree, prefix=''):
    """(qualified name, node) of every function and method, nested ones too."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield prefix + node.name, node
            yield from _functions(node, prefix + node.name + '.')
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, prefix + node.name + '.')


def _complexity(function):
    """radon's cyclomatic complexity of a function: 1, plus each branch of its body (nested functions apart)."""
    total = 1
    pending = list(ast.iter_child_nodes(function))
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(node, ast.Try):
            total += len(node.handlers) + bool(node.orelse)
        elif isinstance(node, ast.BoolOp):
            total += len(node.values) - 1
        elif isinstance(node, (ast.If, ast.IfExp, ast.Assert)):
            total += 1
        elif isinstance(node, (ast.For, ast.While, ast.AsyncFor)):
            total += bool(node.orelse) + 1
        elif isinstance(node, ast.comprehension):
            total += len(node.ifs) + 1
        pending.extend(ast.iter_child_nodes(node))
    return total


def test_complexity_counts_as_radon_does():
    source = ('def f(a, b):\n    if a and b or a:\n        return [x for x in a if x]\n'
              '    for x in b:\n        pass\n    else:\n        pass\n    try:\n        pass\n'
              '    except KeyError:\n        pass\n    except ValueError:\n        pass\n'
              '    def inner():\n        if a:\n            pass\n    return 1 if a else 2\n')
    function = ast.parse(source).body[0]
    assert _complexity(function) == 1 + 1 + 2 + 2 + 2 + 2 + 1


def test_no_function_is_longer_than_40_lines():
    long = ['%s:%s (%d lines)' % (path, name, node.end_lineno - node.lineno + 1)
            for path, tree in _modules() for name, node in _functions(tree)
            if node.end_lineno - node.lineno + 1 > MAX_LINES]
    assert long == []


def test_no_function_is_more_complex_than_15():
    complex_ = ['%s:%s (%d)' % (path, name, _complexity(node))
                for path, tree in _modules() for name, node in _functions(tree)
                if _complexity(node) > MAX_COMPLEXITY]
    assert complex_ == []


def _value_classes(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            decorators = [ast.unparse(decorator) for decorator in node.decorator_list]
            bases = [ast.unparse(base) for base in node.bases]
            if any('dataclass' in decorator for decorator in decorators):
                yield node.name, 'dataclass'
            if any(base in ('NamedTuple', 'typing.NamedTuple') or 'namedtuple' in base for base in bases):
                yield node.name, 'named tuple'


def test_values_are_records_not_dataclasses_or_named_tuples():
    found = ['%s:%s is a %s' % (path, name, kind) for path, tree in _modules() for name, kind in _value_classes(tree)
             if not (kind == 'named tuple' and path in NAMED_TUPLES_ALLOWED)]
    assert found == []
    imports = [path for path, tree in _modules() for node in ast.walk(tree)
               if isinstance(node, (ast.Import, ast.ImportFrom))
               and 'dataclasses' in ((node.module or '',) if isinstance(node, ast.ImportFrom) else
                                     tuple(alias.name for alias in node.names))]
    assert imports == []


PACKAGE = 'ansible_collections.strata.hier.plugins.'


def _dotted(path):
    return path[:-3].replace(os.sep, '.')


MODULES = {_dotted(path): tree for path, tree in _modules()}


def _run_time_imports(tree):
    """The collection's modules a module imports when it runs (inside functions too; not under TYPE_CHECKING)."""
    typing_only = {id(node) for branch in ast.walk(tree) if isinstance(branch, ast.If)
                   and getattr(branch.test, 'id', getattr(branch.test, 'attr', None)) == 'TYPE_CHECKING'
                   for statement in branch.body for node in ast.walk(statement)}
    found = set()
    for node in ast.walk(tree):
        if id(node) in typing_only or not isinstance(node, ast.ImportFrom) or not (node.module or '').startswith(PACKAGE):
            continue
        base = node.module[len(PACKAGE):]
        found.update(base + '.' + alias.name if base + '.' + alias.name in MODULES else base for alias in node.names)
    return found


IMPORTS = {name: _run_time_imports(tree) for name, tree in MODULES.items()}


def package_of(module):
    """The layout's package of a module: module_utils.core (its mergers too), module_utils.dialects.<name> (or the
    dialects' folder for a one-module dialect), a plugin_utils folder, a plugin type's folder."""
    parts = module.split('.')[:-1]
    return '.'.join(parts[:3] if parts[1:2] == ['dialects'] else parts[:2]) if len(parts) > 1 else parts[0]


def cycles(graph):
    """The groups of nodes that reach each other (strongly connected components of more than one node)."""
    order, low, stack, on_stack, found = {}, {}, [], set(), []
    for root in sorted(graph):
        if root in order:
            continue
        pending = [(root, iter(sorted(graph.get(root, ()))))]
        order[root] = low[root] = len(order)
        stack.append(root)
        on_stack.add(root)
        while pending:
            node, children = pending[-1]
            child = next(children, None)
            if child is None:
                pending.pop()
                if pending:
                    low[pending[-1][0]] = min(low[pending[-1][0]], low[node])
                if low[node] == order[node]:
                    group = []
                    while not group or group[-1] != node:
                        group.append(stack.pop())
                        on_stack.discard(group[-1])
                    if len(group) > 1:
                        found.append(sorted(group))
            elif child not in order:
                order[child] = low[child] = len(order)
                stack.append(child)
                on_stack.add(child)
                pending.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], order[child])
    return found


def test_cycles_are_found_and_only_cycles():
    assert cycles({'a': {'b'}, 'b': {'c'}, 'c': {'a'}, 'd': {'a'}, 'e': set()}) == [['a', 'b', 'c']]
    assert cycles({'a': {'b'}, 'b': set()}) == []


def test_no_module_imports_itself_back():
    assert cycles(IMPORTS) == []


def test_no_package_of_the_layout_imports_itself_back():
    packages = {}
    for module, imported in IMPORTS.items():
        packages.setdefault(package_of(module), set()).update(
            package_of(other) for other in imported if package_of(other) != package_of(module))
    assert packages['module_utils.core'] == set()
    assert cycles(packages) == []


def test_module_utils_imports_the_standard_library_and_the_core_no_dialect():
    wrong = []
    for module, tree in MODULES.items():
        if not module.startswith('module_utils.'):
            continue
        for node in ast.walk(tree):
            names = [node.module or ''] if isinstance(node, ast.ImportFrom) else \
                [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            for name in names:
                ours = name.startswith(PACKAGE + 'module_utils.')
                if not ours and name.split('.')[0] not in sys.stdlib_module_names:
                    wrong.append('%s imports %s' % (module, name))
                if module.startswith('module_utils.core.') and name.startswith(PACKAGE + 'module_utils.dialects.'):
                    wrong.append('%s (the core) imports %s' % (module, name))
    assert wrong == []


def _strings():
    """Every string constant under plugins/ (source.KINDS names each Source module so: 'sources.hier_yml')."""
    return {node.value for tree in MODULES.values() for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str)}


def test_every_helper_module_is_used_by_plugins():
    strings = _strings()
    unused = [module for module in MODULES if module.split('.')[0] in ('module_utils', 'plugin_utils')
              and not any(module in imported for other, imported in IMPORTS.items() if other != module)
              and module.split('.', 1)[1] not in strings]
    assert unused == []
