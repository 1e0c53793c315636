# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 30: the checks of each kind of constraint (module_utils/core/constraints.py) on hand-built chains of
contributions, least specific first, and the parsing of constraints."""

from __future__ import annotations

import pytest

from ansible_collections.strata.hier.plugins.module_utils.core import identity
from ansible_collections.strata.hier.plugins.module_utils.core.errors import MergeError
from ansible_collections.strata.hier.plugins.module_utils.core.constraints import (
    ABSENT, Constraint, ConstraintError, Constraints, Contribution, parse_constraint, shown_value, violations,
)


def level(name, value, merged=None, knocked_out=False, markers=(), secret=False, file=None):
    """A contribution of level ``name`` (its file ``<name>.yml``); ``merged`` defaults to ``value``."""
    return Contribution(level=name, file=file or '%s.yml' % name, value=None if knocked_out else value,
                        merged=ABSENT if knocked_out else (value if merged is None else merged),
                        knocked_out=knocked_out, markers=tuple(markers), secret=secret)


def knockout(name):
    return level(name, None, knocked_out=True)


def where(contribution):
    return '%s:1' % contribution.file


def check(rules, *chain):
    """(rule, detail, the level that breaks it, the level it breaks) of each violation."""
    constraint = parse_constraint('key', rules, 'hier.yml:9')
    return [(found.rule, found.detail, found.at and found.at.level, found.protected and found.protected.level)
            for found in violations(constraint, list(chain), where)]


class Secret:
    """A vault value's stand-in: opaque to the core (registered for the tests that use it)."""

    __slots__ = ('ciphertext',)

    def __init__(self, ciphertext):
        self.ciphertext = ciphertext

    def __str__(self):
        raise AssertionError('the secret was shown')


@pytest.fixture
def secret():
    identity.register_opaque(Secret, lambda value: value.ciphertext)
    yield Secret('$ANSIBLE_VAULT;1.1;AES256;0123')
    del identity._OPAQUE[Secret]      # pylint: disable=protected-access
    identity.FAST_PATHS.forget_identities()


# ---- type

def test_type_passes_a_valid_value_and_checks_each_level_then_the_merged_value():
    schema = {'type': {'type': 'object', 'properties': {'port': {'type': 'integer', 'maximum': 9000}},
                       'required': ['port']}}
    assert check(schema, level('common', {'port': 80}), level('web', {'tls': True}, {'port': 80, 'tls': True})) == []
    assert check(schema, level('common', {'port': 80}), level('web', {'port': 99999})) == [
        ('type', 'web.yml:1 sets {"port": 99999}: port is 99999, above the maximum 9000', 'web', None)]


def test_type_checks_required_on_the_merged_value_only():
    """A level's part of a map merged deep needs no required key; the merged value does."""
    schema = {'type': {'type': 'object', 'required': ['port', 'host']}}
    assert check(schema, level('common', {'port': 80}), level('web', {'host': 'a'}, {'port': 80, 'host': 'a'})) == []
    found = check(schema, level('common', {'port': 80}), level('web', {'tls': True}, {'port': 80, 'tls': True}))
    assert [(rule, at) for rule, _detail, at, _protected in found] == [('type', 'web')]
    assert found[0][1].startswith('the merged value {"port": 80, "tls": true}: ') and found[0][1].endswith(
        '(its most specific level: web.yml:1)')


def test_type_tells_an_item_a_level_broke_once_wherever_the_merge_moves_it():
    schema = {'type': {'type': 'array', 'items': {'enum': ['a', 'b']}}}
    found = check(schema, level('common', ['a', 'x']), level('web', ['b'], ['b', 'a', 'x']))
    assert [(rule, at) for rule, _detail, at, _protected in found] == [('type', 'common')]


def test_type_skips_knockouts_and_vaulted_files():
    schema = {'type': {'type': 'integer'}}
    assert check(schema, level('common', 'text', secret=True)) == []
    assert check(schema, level('common', 1), knockout('web')) == []


# ---- final

def test_final_passes_when_no_level_changes_the_fixed_value():
    assert check({'final': True}, level('common', '1.0 3'), level('web', '1.0 3')) == []


def test_final_catches_a_change_over_the_least_specific_level():
    assert check({'final': True}, level('common', '1.0 3'), level('db', '0.1 -1')) == [
        ('final', 'db.yml:1 sets "0.1 -1" over "1.0 3" fixed at common.yml:1', 'db', 'common')]


def test_final_catches_a_knockout_and_fixes_the_first_level_that_sets_the_path():
    assert check({'final': True}, knockout('base'), level('common', 1), knockout('db')) == [
        ('final', 'db.yml:1 knocks it out; it is fixed at common.yml:1 (1)', 'db', 'common')]


def test_final_compares_merged_values():
    """A map merged deep: a level adding a key changes the merged value."""
    assert check({'final': True}, level('common', {'a': 1}), level('web', {'a': 1}, {'a': 1})) == []
    assert [at for _rule, _detail, at, _protected in check(
        {'final': True}, level('common', {'a': 1}), level('web', {'b': 2}, {'a': 1, 'b': 2}))] == ['web']


# ---- tighten

@pytest.mark.parametrize('direction, good, bad, moved', [
    ('decrease', [900, 600, 600], [900, 1800], 'sets 1800, above 900'),
    ('increase', [14, 16], [14, 12], 'sets 12, below 14'),
    ('subset', [['a', 'b'], ['a']], [['a'], ['a', 'b']], 'adds ["b"] to ["a"]'),
    ('superset', [['a'], ['a', 'b']], [['a', 'b'], ['a']], 'drops ["b"] from ["a", "b"]'),
])
def test_tighten_moves_one_way_only(direction, good, bad, moved):
    assert check({'tighten': direction}, *[level('l%d' % index, value) for index, value in enumerate(good)]) == []
    assert check({'tighten': direction}, *[level('l%d' % index, value) for index, value in enumerate(bad)]) == [
        ('tighten', 'l1.yml:1 %s at l0.yml:1; it may only %s' % (moved, {'subset': 'narrow', 'superset': 'widen'}.get(
            direction, direction)), 'l1', 'l0')]


def test_tighten_compares_with_the_last_level_that_set_the_path():
    """The chain holds only the levels that set the path: each compares with the one before it in the chain."""
    assert check({'tighten': 'decrease'}, level('common', 900), level('role', 600), level('node', 700)) == [
        ('tighten', 'node.yml:1 sets 700, above 600 at role.yml:1; it may only decrease', 'node', 'role')]


def test_tighten_over_map_keys_and_values_it_cannot_compare():
    assert check({'tighten': 'subset'}, level('common', {'a': 1, 'b': 2}), level('web', {'a': 1})) == []
    assert check({'tighten': 'decrease'}, level('common', 900), level('web', 'never')) == [
        ('tighten', 'web.yml:1 sets "never", which tighten: decrease cannot compare with 900 at common.yml:1; it may only '
         'decrease', 'web', 'common')]


def test_tighten_a_knockout_narrows_to_nothing_and_breaks_every_other_direction():
    assert check({'tighten': 'subset'}, level('common', ['a']), knockout('web')) == []
    assert check({'tighten': 'superset'}, level('common', ['a']), knockout('web')) == [
        ('tighten', 'web.yml:1 knocks it out; it may only widen from ["a"] at common.yml:1', 'web', 'common')]


# ---- owners

def test_owners_by_level_as_written_and_by_file_glob():
    rules = {'owners': ['common', 'security/*.yml']}
    assert check(rules, level('common', 1), level('team', 2, file='security/ssh.yml')) == []
    assert check(rules, level('common', 1), level('roles/%{Role}', 2, file='roles/web.yml')) == [
        ('owners', "roles/web.yml:1 (level 'roles/%{Role}') sets 2; only common, security/*.yml may set it",
         'roles/%{Role}', None)]


def test_owners_a_knockout_is_a_write_too():
    assert check({'owners': ['common']}, level('common', 1), knockout('web')) == [
        ('owners', "web.yml:1 (level 'web') knocks it out; only common may set it", 'web', None)]


def test_owners_names_a_mapped_level_by_its_template_and_a_datum_level_as_either_writes_it():
    assert check({'owners': ['Roles/%{role}']}, level('Roles/%{role} [role=web]', 1)) == []
    assert check({'owners': ['Environments\\$($Node.Environment)']}, level('Environments/%{Environment}', 1)) == []
    assert check({'owners': ['Environments/%{Environment}']}, level('Environments\\$($Node.Environment)', 1)) == []
    assert check({'owners': ['Baselines\\Security']}, level('Baselines\\Server', 1)) != []


# ---- protect_items

def test_protect_items_passes_while_the_item_stays():
    assert check({'protect_items': ['chrony']}, level('common', ['chrony']), level('db', ['pg'], ['pg', 'chrony'])) == []
    assert check({'protect_items': ['chrony']}, level('common', ['ssh'])) == []      # never set: nothing to protect


def test_protect_items_catches_a_knocked_out_list_item():
    assert check({'protect_items': ['chrony']}, level('common', ['ssh', 'chrony']),
                 level('db', ['ntpsec'], ['ntpsec', 'ssh'], markers=['chrony'])) == [
        ('protect_items', 'db.yml:1 knocks out "chrony", set at common.yml:1', 'db', 'common')]


def test_protect_items_catches_a_map_key_dropped_or_knocked_out():
    protected = {'protect_items': ['Gateway']}
    assert check(protected, level('env', {'Gateway': 'x', 'Dns': 'y'}), level('node', {'Dns': 'z'})) == [
        ('protect_items', 'node.yml:1 drops "Gateway", set at env.yml:1', 'node', 'env')]
    assert check(protected, level('env', {'Gateway': 'x'}), knockout('node')) == [
        ('protect_items', 'node.yml:1 knocks out "Gateway", set at env.yml:1', 'node', 'env')]


# ---- required

def test_required():
    assert check({'required': True}, level('common', 'x')) == []
    assert check({'required': True}) == [('required', 'no level of the host sets it', None, None)]
    assert check({'required': True}, level('common', 'x'), knockout('node')) == [
        ('required', 'node.yml:1 knocks it out', 'node', None)]


# ---- vault

def test_vault_required_passes_vault_values_and_vaulted_files(secret):
    assert check({'vault': 'required'}, level('env', secret)) == []
    assert check({'vault': 'required'}, level('env', {'user': secret, 'password': secret})) == []
    assert check({'vault': 'required'}, level('env', 'hunter2', secret=True)) == []


def test_vault_required_catches_plain_text_without_showing_it(secret):
    found = check({'vault': 'required'}, level('env', secret), level('db', 'hunter2'))
    assert found == [('vault', 'db.yml:1 sets it in plain text; it must be a vault value', 'db', None)]
    assert check({'vault': 'required'}, level('env', {'user': 'svc', 'password': secret})) == [
        ('vault', 'env.yml:1 sets it in plain text; it must be a vault value', 'env', None)]


def test_a_vault_value_is_never_shown(secret):
    assert shown_value([secret, 'x']) == '["<vault value>", "x"]'
    assert shown_value('hunter2', level('env', 'hunter2', secret=True)) == '<withheld: vaulted file>'
    assert shown_value('x' * 100) == '"%s...' % ('x' * 76)


# ---- severity, several constraints, regex keys

def test_severity_is_error_unless_warn():
    assert parse_constraint('k', {'final': True}, 'w').severity == 'error'
    assert parse_constraint('k', {'final': True, 'severity': 'warn'}, 'w').severity == 'warn'


def test_every_constraint_of_a_path_applies():
    constraints = Constraints({'ntp/makestep': {'final': True}, '^ntp/': {'owners': ['common']},
                               '^.*step$': {'type': {'type': 'string'}}, 'ntp': {'required': True}}, _where)
    assert [(constraint.name, constraint.rules()) for constraint in constraints.for_path(('ntp', 'makestep'))] == [
        ('ntp/makestep', ['final']), ('^ntp/', ['owners']), ('^.*step$', ['type'])]
    assert [constraint.name for constraint in constraints.for_path(('ntp',))] == ['ntp']
    assert constraints.for_path(('NTP', 'servers')) == []      # keys as written


def test_regex_keys_match_either_separator_and_case_insensitive_keys():
    constraints = Constraints({'^Security\\\\': {'owners': ['x']}, 'LcmConfig\\Settings': {'final': True}}, _where,
                              case_insensitive_keys=True)
    assert [constraint.name for constraint in constraints.for_path(('security', 'Audit'))] == ['^Security\\\\']
    assert [constraint.name for constraint in constraints.for_path(('lcmconfig', 'SETTINGS'))] == ['LcmConfig\\Settings']
    assert constraints.exact_paths() == [('LcmConfig', 'Settings')]


def test_one_chain_several_rules():
    constraint = Constraint(name='k', final=True, tighten='decrease', required=True)
    found = violations(constraint, [level('common', 900), level('web', 1800)], where)
    assert [violation.rule for violation in found] == ['final', 'tighten']


# ---- parsing

def _where(name):
    return "hier.yml:7: constraints %r" % name


@pytest.mark.parametrize('spec, message', [
    ({'k': {'fianl': True}}, "hier.yml:7: constraints 'k': unknown rule 'fianl'; valid rules: type, final, tighten"),
    ({'k': {'final': 'yes'}}, "hier.yml:7: constraints 'k': final must be true or false, not a string"),
    ({'k': {'required': 1}}, "hier.yml:7: constraints 'k': required must be true or false, not a number"),
    ({'k': {'tighten': 'sideways'}}, "hier.yml:7: constraints 'k': tighten must be one of decrease, increase, subset, "
                                     "superset, not 'sideways'"),
    ({'k': {'severity': 'fatal'}}, "hier.yml:7: constraints 'k': severity must be one of error, warn, not 'fatal'"),
    ({'k': {'vault': True}}, "hier.yml:7: constraints 'k': vault must be one of required, not True"),
    ({'k': {'owners': 'common'}}, "hier.yml:7: constraints 'k': owners must be a list of levels"),
    ({'k': {'owners': []}}, "hier.yml:7: constraints 'k': owners must be a list of levels"),
    ({'k': {'protect_items': [{'a': 1}]}}, "hier.yml:7: constraints 'k': protect_items must be a list of list items"),
    ({'k': {'protect_items': 'chrony'}}, "hier.yml:7: constraints 'k': protect_items must be a list of list items"),
    ({'k': {}}, "hier.yml:7: constraints 'k': a constraint is a map of rules"),
    ({'k': True}, "hier.yml:7: constraints 'k': a constraint is a map of rules (type, final, tighten, owners, "
                  "protect_items, required, vault, severity), not a boolean"),
    ({'^(k': {'final': True}}, "hier.yml:7: constraints '^(k': invalid regular expression: missing ), unterminated"),
    ({'k': {'type': {'type': 'integr'}}}, "hier.yml:7: constraints 'k': type: type: unknown type 'integr'"),
    ([], 'constraints must be a map of key paths to rules, not a list'),
])
def test_a_bad_constraint_names_its_place_and_key(spec, message):
    with pytest.raises(MergeError) as caught:      # ConstraintError, or the schema's SchemaError
        Constraints(spec, _where)
    assert str(caught.value).startswith(message), str(caught.value)


def test_a_vault_value_is_no_protected_item(secret):
    with pytest.raises(ConstraintError, match='protect_items must be a list'):
        parse_constraint('k', {'protect_items': [secret]}, 'w')
