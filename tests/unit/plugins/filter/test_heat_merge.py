# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later

from __future__ import annotations

import pytest

from ansible.errors import AnsibleFilterError

from ansible_collections.strata.hier.plugins.filter.heat_merge import FilterModule, heat_merge

ONE = {'parameters': {'ControllerServices': ['Keystone']},
       'parameter_merge_strategies': {'ControllerServices': 'merge'}}
TWO = {'parameters': {'ControllerServices': ['Glance']}}


def test_registered():
    assert FilterModule().filters()['heat_merge'] is heat_merge


def test_combine_convention_and_seed():
    expected = {'parameters': {'ControllerServices': ['Keystone', 'Glance']}, 'parameter_defaults': {},
                'resource_registry': {}}
    assert heat_merge(ONE, TWO) == expected
    assert heat_merge([ONE, TWO]) == expected
    assert heat_merge([{'parameters': {'ControllerServices': ['Keystone']}}, TWO])['parameters'] == \
        {'ControllerServices': ['Glance']}


def test_parameter_types():
    one = {'parameter_defaults': {'Dns': '8.8.8.8'}, 'parameter_merge_strategies': {'default': 'merge'}}
    two = {'parameter_defaults': {'Dns': '1.1.1.1'}}
    assert heat_merge(one, two, parameter_types={'Dns': 'comma_delimited_list'})['parameter_defaults'] == \
        {'Dns': '8.8.8.8,1.1.1.1'}
    assert heat_merge(one, two)['parameter_defaults'] == {'Dns': '8.8.8.81.1.1.1'}


def test_stack_parameters_and_the_templates_parameters():
    result = heat_merge([ONE, dict(TWO, parameters={'ControllerServices': ['Glance'], 'Other': 'x'})],
                        parameters={'ControllerServices': ['Nova']},
                        parameter_types={'ControllerServices': 'comma_delimited_list'})
    assert result['parameters'] == {'ControllerServices': ['Nova', 'Keystone', 'Glance']}
    with pytest.raises(AnsibleFilterError, match="heat_merge: .*empty section 'parameters'"):
        heat_merge(ONE, {'parameters': None})


@pytest.mark.parametrize('args, kwargs, words', [
    ((ONE, dict(TWO, parameter_merge_strategies={'ControllerServices': 'overwrite'})), {},
     ['heat_merge:', "conflicting merge strategy 'overwrite'", "'ControllerServices'", 'environment file 1']),
    (({'parameters': {'n': 1}, 'parameter_merge_strategies': {'default': 'merge'}}, {'parameters': {'n': 2}}), {},
     ["'n'", 'number']),
    ((ONE, {'output': {}}), {}, ["'output'"]),
    ((ONE, TWO), {'parameter_types': {'ControllerServices': 'array'}}, ["'array'"]),
    ((ONE,), {}, ['must be a list']),
])
def test_errors(args, kwargs, words):
    with pytest.raises(AnsibleFilterError) as error:
        heat_merge(*args, **kwargs)
    for word in words:
        assert word in str(error.value)


@pytest.mark.parametrize('levels', [100, 1000])
def test_too_deep_data_is_a_filter_error(levels):
    data = {}
    for _level in range(levels):
        data = {'k': data}
    with pytest.raises(AnsibleFilterError, match='heat_merge: data nests deeper than 64 levels, or refers to itself'):
        heat_merge([{'parameters': {'p': data}}])


def test_type_mismatch_warns(mocker):
    warning = mocker.patch('ansible_collections.strata.hier.plugins.plugin_utils.filters.Display.warning')
    one = {'parameters': {'j': {'a': {'x': 1}}}, 'parameter_merge_strategies': {'j': 'deep_merge'}}
    assert heat_merge(one, {'parameters': {'j': {'a': 'text'}}})['parameters'] == {'j': {'a': 'text'}}
    assert "parameter 'j'" in warning.call_args[0][0] and 'type mismatch' in warning.call_args[0][0]
