#!/usr/bin/env bash
# The README's demo: examples/demo/playbook.yml with the example store's nodes as inventory, as scripts/demo runs
# it. The playbook asserts Datum's documented results and that host vars equal the lookup's answers.
set -eux

# shellcheck source=../setup_strata_examples/examples.sh
source ../setup_strata_examples/examples.sh
examples=$(strata_examples)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ANSIBLE_NOCOLOR=true

ansible-playbook -i "$examples/nodes.hier.yml" --vault-password-file "$examples/vault-password.txt" \
    "$examples/../demo/playbook.yml" "$@" > "$work/demo.log" 2>&1 || { cat "$work/demo.log"; exit 1; }
cat "$work/demo.log"

# every node of the store played both plays' tasks, without failures
for host in DSCFile01 DSCFile02 DSCWeb01 DSCWeb02 localhost; do
    grep -Eq "^$host +: ok=6 +changed=0 +unreachable=0 +failed=0 " "$work/demo.log"
done
grep -q 'The merged data matches Datum' "$work/demo.log"
grep -q "DSCWeb01 is in \['env_Dev', 'role_WebServer'\]" "$work/demo.log"
