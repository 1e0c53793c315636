# -*- coding: utf-8 -*-
# Copyright (c) 2026, strata.hier contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
# SPDX-License-Identifier: GPL-3.0-or-later
"""A Datum store shaped like Datum's DscWorkshop test assets (tests/Integration/assets/DscWorkshopConfigData):
the same folders, Datum.yml settings and kinds of handler expressions, with data of our own."""

from __future__ import annotations

import os

DATUM_YML = r'''ResolutionPrecedence:
  - AllNodes\$($Node.Environment)\$($Node.NodeName)
  - Environment\$($Node.Environment)
  - Locations\$($Node.Location)
  - '[x= "Roles\$($Node.Role)" =]'
  - Baselines\Security
  - Baselines\$($Node.Baseline)
  - Baselines\DscLcm
  - |
    '[x= {
      if ($node.Name -notlike "*file*")
      {
        'Somevalue'
      }
    } =]'

DatumHandlersThrowOnError: false
DatumHandlers:
  Datum.ProtectedData::ProtectedDatum:
    CommandOptions:
      PlainTextPassword: SomeSecret
  Datum.InvokeCommand::InvokeCommand:
    SkipDuringLoad: true

DscLocalConfigurationManagerKeyName: LcmConfig
default_lookup_options: MostSpecific

lookup_options:
  Configurations:
    merge_basetype_array: Unique
  DscTagging:
    merge_hash: deep
  DscTagging\Layers:
    merge_basetype_array: Unique
  WindowsFeatures:
    merge_hash: deep
  WindowsFeatures\Names:
    merge_basetype_array: Unique
  FileSystemObjects:
    merge_hash: deep
  FileSystemObjects\Items:
    merge_hash_array: UniqueKeyValTuples
    merge_options:
      tuple_keys:
        - DestinationPath
  ComputerSettings:
    merge_hash: deep
  LcmConfig:
    merge_hash: deep
  LcmConfig\ConfigurationRepositoryWeb:
    merge_hash: deep
  LcmConfig\ConfigurationRepositoryWeb\Server:
    merge_hash: deep
'''

NODE = r'''NodeName: {name}
Environment: {environment}
Role: {role}
Description: '[x= "$($Node.Role) in $($Node.Environment)" =]'
Location: {location}
Baseline: Server

ComputerSettings:
  Name: '[x={{ $Node.NodeName }}=]'
  Description: '[x= "$($Node.Role) in $($Node.Environment)" =]'

LcmConfig:
  ConfigurationRepositoryWeb:
    Server:
      ConfigurationNames: '[x={{ $Node.NodeName }}=]'

DscTagging:
  Layers:
    - '[x={{ Get-DatumSourceFile -Path $File }} =]'
  NodeVersion: '[x={{ $datum.Baselines.DscLcm.DscTagging.Version }} =]'
  NodeRole: '[x={{ $Node.Role }} =]'

SomeCredential: '[ENC=PE9ianMgVmVyc2lvbj0iMS4xLjAuMSIgeG1sbnM9]'
'''

LAYERS = "\nDscTagging:\n  Layers:\n    - '[x={ Get-DatumSourceFile -Path $File } =]'\n"

FILES = {
    'Datum.yml': DATUM_YML,
    'AllNodes/Dev/FS01.yml': NODE.format(name='FS01', environment='Dev', role='FileServer', location='Berlin'),
    'AllNodes/Dev/WEB01.yml': NODE.format(name='WEB01', environment='Dev', role='WebServer', location='Paris'),
    # as DscWorkshop's ReferenceConfigurationProd: the name and the environment come from the file
    'AllNodes/Prod/FS02.yml': NODE.format(name="'[x={ $Node.Name }=]'", environment="'[x={ $File.Directory.BaseName } =]'",
                                          role='FileServer', location='Paris'),
    'Environment/Dev.yml': r'''DscTagging:
  Environment: '[x={ $Node.Environment } =]'
  Layers:
    - '[x={ Get-DatumSourceFile -Path $File } =]'

FileSystemObjects:
  Items:
    - DestinationPath: '[x= "C:\Test\$($File.BaseName)-Environment" =]'
      Type: Directory
''',
    'Locations/Berlin.yml': r'''Configurations:
  - FileSystemObjects

FileSystemObjects:
  Items:
    - DestinationPath: '[x= "C:\Test\$($File.BaseName)" =]'
      Type: Directory
''' + LAYERS,
    'Locations/Paris.yml': "Configurations:\n  - FileSystemObjects\n" + LAYERS,
    'Roles/FileServer.yml': r'''Configurations:
  - FileSystemObjects

WindowsFeatures:
  Names:
    - File-Services

FileSystemObjects:
  Items:
    - DestinationPath: C:\Test
      Type: Directory
    - DestinationPath: '[x= "C:\Test\Test1File1.txt" =]'
      Type: File
''' + LAYERS,
    'Roles/WebServer.yml': r'''Configurations:
  - WindowsFeatures

WindowsFeatures:
  Names:
    - +Web-Server

WebSite:
  Name: '[x= "$($Node.NodeName).$($Datum.Global.Domain.DomainFqdn)" =]'
''' + LAYERS,
    'Baselines/Security.yml': "Configurations:\n  - WindowsFeatures\n\nWindowsFeatures:\n  Names:\n    - -Telnet-Client\n"
                              + LAYERS,
    'Baselines/Server.yml': r'''Configurations:
  - ComputerSettings

ComputerSettings:
  DomainName: '[x={ $Datum.Global.Domain.DomainFqdn }=]'
  JoinOU: '[x= "CN=Computers,$($Datum.Global.Domain.DomainDn)" =]'
  Credential: '[x={ $Datum.Global.Domain.DomainJoinCredentials }=]'
  TimeZone: Greenwich Standard Time
''' + LAYERS,
    'Baselines/DscLcm.yml': r'''Configurations:
  - DscTagging

DscTagging:
  Version: 0.3.0
  Layers:
    - '[x={ Get-DatumSourceFile -Path $File } =]'

LcmConfig:
  ConfigurationRepositoryWeb:
    Server:
      ServerURL: https://pull.example.com/PSDSCPullServer.svc
''',
    'Global/Domain.yml': r'''DomainFqdn: example.com
DomainShort: example
DomainDn: '[x= "dc=$($Datum.Global.Domain.DomainShort),dc=com" =]'
DomainJoinCredentials: '[ENC=PE9ianMgVmVyc2lvbj0iMS4xLjAuMSIgeG1sbnM9]'
''',
}
FILES['Environment/Prod.yml'] = FILES['Environment/Dev.yml']


def write_store(root):
    """Write the store under ``root``; return the path of its Datum.yml."""
    for name, text in FILES.items():
        path = os.path.join(str(root), *name.split('/'))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as stream:
            stream.write(text)
    return os.path.join(str(root), 'Datum.yml')
