"""The inventory plugin's host variables (JSON of ansible-inventory --host) are the vars plugin's: argv[1], argv[2]."""
import json
import sys


def plain(value):
    if isinstance(value, dict):
        if set(value) == {'__ansible_unsafe'}:
            return value['__ansible_unsafe']
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


with open(sys.argv[1]) as stream:
    from_inventory_plugin = plain(json.load(stream))
with open(sys.argv[2]) as stream:
    from_vars_plugin = plain(json.load(stream))
keys = [key for key in from_inventory_plugin if not key.startswith('hier_') and key != 'ansible_host']   # hier_*, compose
assert len(keys) > 10, keys
different = [key for key in keys if from_inventory_plugin[key] != from_vars_plugin.get(key)]
assert not different, different
