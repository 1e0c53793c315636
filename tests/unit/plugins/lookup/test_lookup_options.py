# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""The lookup's options are checked: Ansible ignores unknown keyword arguments and reads any text but true/yes/on/1
as false (issue 33, item 4)."""

from __future__ import annotations

import pytest

from ansible.errors import AnsibleLookupError
from ansible.parsing.dataloader import DataLoader
from ansible.plugins.loader import lookup_loader
from ansible.template import Templar

from ansible_collections.strata.hier.plugins.lookup.hier import LookupModule

VALID = 'valid options: config, default, explain, merge, origin_tags, provenance, query, render, whole_node'


@pytest.fixture
def config(tmp_path):
    (tmp_path / 'data').mkdir()
    (tmp_path / 'data' / 'Common.yml').write_text('Packages: [base]\n')
    (tmp_path / 'hier.yml').write_text('datadir: data\nhierarchy: [Common]\n')
    return str(tmp_path / 'hier.yml')


def lookup(config, *terms, plugin=None, **options):
    loader = DataLoader()
    plugin = plugin or lookup_loader.get('strata.hier.hier', loader=loader, templar=Templar(loader=loader))
    return plugin.run(list(terms), {}, config=config, **options)


def test_an_unknown_option_is_an_error_naming_it_the_closest_and_the_valid_ones(config):
    with pytest.raises(AnsibleLookupError) as raised:
        lookup(config, 'Packages', explian=True)
    assert str(raised.value) == 'strata.hier.hier: unknown option explian (did you mean explain?); ' + VALID


def test_every_unknown_option_is_named(config):
    message = r'unknown options colour, defualt \(did you mean default\?\); %s$' % VALID
    with pytest.raises(AnsibleLookupError, match=message):
        lookup(config, 'Packages', defualt=[], colour='red')


def test_terms_are_no_keyword_option(config):
    with pytest.raises(AnsibleLookupError, match='unknown option _terms;'):
        lookup(config, 'Packages', _terms=['Other'])


def test_the_short_name_checks_the_same_options(config):
    loader = DataLoader()
    plugin = LookupModule(loader=loader, templar=Templar(loader=loader))
    plugin._load_name = 'hier_options_test'     # a one-line re-export: no DOCUMENTATION of its own
    with pytest.raises(AnsibleLookupError, match='unknown option explian'):
        lookup(config, 'Packages', plugin=plugin, explian=True)


@pytest.mark.parametrize('option', ['explain', 'render'])
@pytest.mark.parametrize('value', ['maybe', 'ture', '', 2, [True]])
def test_a_boolean_that_is_no_boolean_is_an_error(config, option, value):
    with pytest.raises(AnsibleLookupError, match=r'strata.hier.hier: %s must be true or false \(yes/no, on/off, 1/0\), '
                                                 r'not %s$' % (option, repr(value).replace('[', r'\['))):
        lookup(config, 'Packages', **{option: value})


@pytest.mark.parametrize('value', [False, 'no', 'False', 'off', '0', 0])
def test_every_word_for_false_still_reads_as_false(config, value):
    assert lookup(config, 'Packages', explain=value) == [['base']]


@pytest.mark.parametrize('value', [True, 'yes', 'TRUE', 'on', '1', 1])
def test_every_word_for_true_still_reads_as_true(config, value):
    report, = lookup(config, 'Packages', explain=value)
    assert report['value'] == ['base']


def test_what_ansible_gives_every_lookup_call_is_accepted(config):
    # ansible-core 2.19 passes allow_unsafe on to the lookup; with_* loops give wantlist
    assert lookup(config, 'Packages', wantlist=True, errors='strict', allow_unsafe=True) == [['base']]


def test_an_option_set_to_none_is_unset(config):
    assert lookup(config, 'Packages', explain=None, query=None) == [['base']]
