#!/usr/bin/env bash
# A Puppet control repository (examples/hiera: hiera.yaml version 5, lookup_options in the data) through the
# lookup (lookup-demo.yml asserts Hiera's answers), the inventory (inventory-demo.yml asserts the host vars) and
# the rsop role (each node's file written).
set -eux

# shellcheck source=../setup_strata_examples/examples.sh
source ../setup_strata_examples/examples.sh
hiera=$(strata_examples)/../hiera
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ANSIBLE_NOCOLOR=true

ansible-playbook -i web01.example.com, -c local "$hiera/lookup-demo.yml" "$@" > "$work/lookup.log" 2>&1 \
    || { cat "$work/lookup.log"; exit 1; }
grep -Eq "^web01.example.com +: ok=3 +changed=0 +unreachable=0 +failed=0 " "$work/lookup.log"

ansible-playbook -i "$hiera/inventory.hier.yml" "$hiera/inventory-demo.yml" "$@" > "$work/inventory.log" 2>&1 \
    || { cat "$work/inventory.log"; exit 1; }
grep -Eq "^web01.example.com +: ok=2 +changed=0 +unreachable=0 +failed=0 " "$work/inventory.log"
grep -Eq "^db01.example.com +: ok=1 +changed=0 +unreachable=0 +failed=0 +skipped=1 " "$work/inventory.log"

# the rsop role writes each node's resultant data, relative to the playbook's folder: use a copy
cp -r "$hiera" "$work/repo"
ansible-playbook -i "$work/repo/inventory.hier.yml" "$work/repo/rsop-demo.yml" "$@" > "$work/rsop.log" 2>&1 \
    || { cat "$work/rsop.log"; exit 1; }
grep -q '^nginx__worker_processes: 8$' "$work/repo/rsop/web01.example.com.yml"
grep -q 'ntp1.dc2.example.com' "$work/repo/rsop/db01.example.com.yml"

# a broken hiera.yaml is an error naming the file, its line and the key
sed -i 's/^version: 5$/version: 4/' "$work/repo/hiera.yaml"
if ansible-playbook -i web01.example.com, -c local "$work/repo/lookup-demo.yml" > "$work/broken.log" 2>&1; then
    cat "$work/broken.log"; echo "a version 4 hiera.yaml was accepted"; exit 1
fi
grep -q "hiera.yaml:2: key 'version'" "$work/broken.log"
