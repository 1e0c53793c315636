# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""Issue 26, item 2, cause 6: Hiera's ``facts.os`` from gathered ``ansible_facts`` is Facter 4's ``os`` fact
(puppetlabs/facter: lib/facter/facts/{linux,debian,ubuntu,rhel,sles,windows,macosx}/os, its resolvers and
WindowsReleaseFinder), so ``os/Ubuntu/22.04.yaml`` levels are found as Puppet finds them."""

from __future__ import annotations

import os

import pytest

from ansible.parsing.dataloader import DataLoader

from ansible_collections.strata.hier.plugins.plugin_utils.sources import hiera_yaml
from ansible_collections.strata.hier.plugins.plugin_utils.sources.hiera_yaml import host_facts
from ansible_collections.strata.hier.plugins.plugin_utils.source import open_source

# Ansible's facts as gathered on each system, and Facter 4's os fact there.
SYSTEMS = {
    'Ubuntu 22.04': (
        {'distribution': 'Ubuntu', 'distribution_version': '22.04', 'distribution_major_version': '22',
         'distribution_release': 'jammy', 'os_family': 'Debian', 'architecture': 'x86_64', 'machine': 'x86_64'},
        {'name': 'Ubuntu', 'family': 'Debian', 'release': {'full': '22.04', 'major': '22.04'},
         'distro': {'id': 'Ubuntu', 'codename': 'jammy', 'release': {'full': '22.04', 'major': '22.04'}},
         'architecture': 'x86_64', 'hardware': 'x86_64'}),
    'Debian 12.5 on ARM': (
        {'distribution': 'Debian', 'distribution_version': '12.5', 'distribution_major_version': '12',
         'distribution_minor_version': '5', 'distribution_release': 'bookworm', 'os_family': 'Debian',
         'architecture': 'aarch64', 'machine': 'aarch64'},
        {'name': 'Debian', 'family': 'Debian', 'release': {'full': '12.5', 'major': '12', 'minor': '5'},
         'distro': {'id': 'Debian', 'codename': 'bookworm', 'release': {'full': '12.5', 'major': '12', 'minor': '5'}},
         'architecture': 'aarch64', 'hardware': 'aarch64'}),
    'RHEL 9.3': (
        {'distribution': 'RedHat', 'distribution_version': '9.3', 'distribution_major_version': '9',
         'distribution_release': 'Plow', 'os_family': 'RedHat', 'architecture': 'x86_64', 'machine': 'x86_64'},
        {'name': 'RedHat', 'family': 'RedHat', 'release': {'full': '9.3', 'major': '9', 'minor': '3'},
         'distro': {'id': 'RedHatEnterprise', 'codename': 'Plow', 'release': {'full': '9.3', 'major': '9', 'minor': '3'}},
         'architecture': 'x86_64', 'hardware': 'x86_64'}),
    'Rocky 9.3': (
        {'distribution': 'Rocky', 'distribution_version': '9.3', 'distribution_major_version': '9',
         'distribution_release': 'Blue Onyx', 'os_family': 'RedHat', 'architecture': 'x86_64', 'machine': 'x86_64'},
        {'name': 'Rocky', 'family': 'RedHat', 'release': {'full': '9.3', 'major': '9', 'minor': '3'},
         'distro': {'id': 'Rocky', 'codename': 'Blue Onyx', 'release': {'full': '9.3', 'major': '9', 'minor': '3'}},
         'architecture': 'x86_64', 'hardware': 'x86_64'}),
    'AlmaLinux 8.9': (
        {'distribution': 'AlmaLinux', 'distribution_version': '8.9', 'distribution_major_version': '8',
         'distribution_release': 'Midnight Oncilla', 'os_family': 'RedHat', 'machine': 'x86_64'},
        {'name': 'AlmaLinux', 'family': 'RedHat', 'release': {'full': '8.9', 'major': '8', 'minor': '9'},
         'distro': {'id': 'AlmaLinux', 'codename': 'Midnight Oncilla',
                    'release': {'full': '8.9', 'major': '8', 'minor': '9'}},
         'architecture': 'x86_64', 'hardware': 'x86_64'}),
    'CentOS Stream 9': (
        {'distribution': 'CentOS', 'distribution_version': '9', 'distribution_major_version': '9',
         'distribution_release': 'Stream', 'os_family': 'RedHat', 'machine': 'x86_64'},
        {'name': 'CentOS', 'family': 'RedHat', 'release': {'full': '9', 'major': '9'},
         'distro': {'id': 'CentOSStream', 'release': {'full': '9', 'major': '9'}},
         'architecture': 'x86_64', 'hardware': 'x86_64'}),
    'Fedora 39': (
        {'distribution': 'Fedora', 'distribution_version': '39', 'distribution_major_version': '39',
         'distribution_release': '', 'os_family': 'RedHat', 'machine': 'x86_64'},
        {'name': 'Fedora', 'family': 'RedHat', 'release': {'full': '39', 'major': '39'},
         'distro': {'id': 'Fedora', 'release': {'full': '39', 'major': '39'}},
         'architecture': 'x86_64', 'hardware': 'x86_64'}),
    'SLES 15 SP5': (
        {'distribution': 'SLES', 'distribution_version': '15.5', 'distribution_major_version': '15',
         'distribution_release': '5', 'os_family': 'Suse', 'machine': 'x86_64'},
        {'name': 'SLES', 'family': 'Suse', 'release': {'full': '15.5', 'major': '15', 'minor': '5'},
         'distro': {'id': 'SUSE', 'codename': 'n/a', 'release': {'full': '15.5', 'major': '15', 'minor': '5'}},
         'architecture': 'x86_64', 'hardware': 'x86_64'}),
    'SLES 12 on i686': (
        {'distribution': 'SLES', 'distribution_version': '12', 'distribution_major_version': '12',
         'os_family': 'Suse', 'machine': 'i686'},
        {'name': 'SLES', 'family': 'Suse', 'release': {'full': '12.0', 'major': '12', 'minor': '0'},
         'distro': {'id': 'SUSE LINUX', 'codename': 'n/a', 'release': {'full': '12.0', 'major': '12', 'minor': '0'}},
         'architecture': 'i386', 'hardware': 'i686'}),
    'Windows Server 2022': (
        {'distribution': 'Microsoft Windows Server 2022 Datacenter', 'distribution_version': '10.0.20348.0',
         'distribution_major_version': '10', 'os_family': 'Windows', 'os_product_type': 'server',
         'architecture': '64-bit'},
        {'name': 'windows', 'family': 'windows', 'release': {'full': '2022', 'major': '2022'},
         'architecture': 'x64', 'hardware': 'x86_64'}),
    'Windows Server 2012 R2': (
        {'distribution': 'Microsoft Windows Server 2012 R2 Standard', 'distribution_version': '6.3.9600.0',
         'distribution_major_version': '6', 'os_family': 'Windows', 'architecture': '64-bit'},
        {'name': 'windows', 'family': 'windows', 'release': {'full': '2012 R2', 'major': '2012 R2'},
         'architecture': 'x64', 'hardware': 'x86_64'}),
    'Windows 11': (
        {'distribution': 'Microsoft Windows 11 Pro', 'distribution_version': '10.0.22631.0',
         'distribution_major_version': '10', 'os_family': 'Windows', 'os_product_type': 'workstation',
         'architecture': '64-bit'},
        {'name': 'windows', 'family': 'windows', 'release': {'full': '11', 'major': '11'},
         'architecture': 'x64', 'hardware': 'x86_64'}),
    'macOS 13.5.1 on Apple silicon': (
        {'distribution': 'MacOSX', 'distribution_version': '13.5.1', 'distribution_major_version': '13',
         'os_family': 'Darwin', 'kernel': '22.6.0', 'architecture': 'arm64', 'machine': 'arm64'},
        {'name': 'Darwin', 'family': 'Darwin', 'release': {'full': '22.6.0', 'major': '22', 'minor': '6'},
         'macosx': {'version': {'full': '13.5.1', 'major': '13', 'minor': '5', 'patch': '1'}},
         'architecture': 'arm64', 'hardware': 'arm64'}),
    'Mac OS X 10.15.7': (
        {'distribution': 'MacOSX', 'distribution_version': '10.15.7', 'distribution_major_version': '10',
         'os_family': 'Darwin', 'kernel': '19.6.0', 'machine': 'x86_64'},
        {'name': 'Darwin', 'family': 'Darwin', 'release': {'full': '19.6.0', 'major': '19', 'minor': '6'},
         'macosx': {'version': {'full': '10.15.7', 'major': '10.15', 'minor': '7'}},
         'architecture': 'x86_64', 'hardware': 'x86_64'}),
}


@pytest.mark.parametrize('system', sorted(SYSTEMS))
def test_the_os_fact_is_facters(system):
    ansible_facts, facter = SYSTEMS[system]
    assert host_facts({'inventory_hostname': 'web01', 'ansible_facts': ansible_facts})[1]['os'] == facter


def test_another_family_keeps_ansibles_names_and_a_host_os_variable_wins():
    arch = {'distribution': 'Archlinux', 'distribution_version': '', 'os_family': 'Archlinux', 'machine': 'x86_64'}
    expected = {'name': 'Archlinux', 'family': 'Archlinux', 'architecture': 'x86_64', 'hardware': 'x86_64'}
    assert host_facts({'ansible_facts': arch})[1]['os'] == expected
    ubuntu = SYSTEMS['Ubuntu 22.04'][0]
    assert host_facts({'ansible_facts': ubuntu, 'os': {'family': 'mine'}})[1]['os'] == {'family': 'mine'}
    assert 'os' not in host_facts({'ansible_facts': {'machine': 'x86_64'}})[1]


def test_the_os_fact_is_made_once_per_distinct_facts(monkeypatch):
    made = []
    real = hiera_yaml._made_os_fact       # pylint: disable=protected-access
    monkeypatch.setattr(hiera_yaml, '_OS_FACTS', {})
    monkeypatch.setattr(hiera_yaml, '_made_os_fact', lambda facts: made.append(facts) or real(facts))
    ubuntu = SYSTEMS['Ubuntu 22.04'][0]
    first = host_facts({'inventory_hostname': 'a', 'ansible_facts': dict(ubuntu)})[1]['os']
    again = host_facts({'inventory_hostname': 'b', 'ansible_facts': dict(ubuntu, hostname='b')})[1]['os']
    newer = host_facts({'inventory_hostname': 'a', 'ansible_facts': dict(ubuntu, distribution_version='24.04')})[1]
    assert first == again == SYSTEMS['Ubuntu 22.04'][1]
    assert newer['os']['release'] == {'full': '24.04', 'major': '24.04'}
    assert len(made) == 2       # a lookup call maps its host's facts again: the os fact was made each time


def test_an_ubuntu_host_reads_its_release_level_as_puppet_does(tmp_path):
    files = {'hiera.yaml': 'version: 5\nhierarchy:\n  - name: release\n'
                           '    path: "os/%{facts.os.name}/%{facts.os.release.major}.yaml"\n'
                           '  - name: distro\n    path: "os/%{facts.os.distro.codename}.yaml"\n'
                           '  - name: common\n    path: common.yaml\n',
             'data/os/Ubuntu/22.04.yaml': 'motd: jammy release\n', 'data/os/jammy.yaml': 'codename: jammy\n',
             'data/common.yaml': 'motd: common\ncodename: none\n'}
    for name, text in files.items():
        os.makedirs(os.path.dirname(str(tmp_path / name)), exist_ok=True)
        (tmp_path / name).write_text(text)
    host = {'inventory_hostname': 'web01', 'ansible_facts': SYSTEMS['Ubuntu 22.04'][0]}
    view = open_source(str(tmp_path / 'hiera.yaml'), DataLoader()).for_host(host)
    assert (view.lookup('motd').value, view.lookup('codename').value) == ('jammy release', 'jammy')
