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

# every node of the store played its tasks, localhost the filter's and the verdict, without failures
for host in DSCFile01 DSCFile02 DSCWeb01 DSCWeb02; do
    grep -Eq "^$host +: ok=6 +changed=0 +unreachable=0 +failed=0 " "$work/demo.log"
done
grep -Eq "^localhost +: ok=7 +changed=0 +unreachable=0 +failed=0 " "$work/demo.log"
grep -q 'The merged data matches Datum' "$work/demo.log"
grep -q '"msg": "strata.hier demo PASSED: .* each of the 4 nodes' "$work/demo.log"
# one line per check: no per-item lines
if grep -q '(item=' "$work/demo.log"; then echo "the demo prints per-item lines"; exit 1; fi

# a failing check stops the demo before its verdict (any_errors_fatal)
cp -r "$examples" "$work/store"
sed -i 's/^Timezone: .*/Timezone: Mars Standard Time/' "$work/store/data/AllNodes/Dev/DSCWeb01.yml"
grep -q 'Mars Standard Time' "$work/store/data/AllNodes/Dev/DSCWeb01.yml"
if ansible-playbook -i "$work/store/nodes.hier.yml" --vault-password-file "$examples/vault-password.txt" \
    "$examples/../demo/playbook.yml" -e "hier=$examples/hier.yml" > "$work/broken.log" 2>&1; then
    cat "$work/broken.log"; echo "the demo passed with data that differs from its lookups"; exit 1
fi
if grep -q 'demo PASSED' "$work/broken.log"; then echo "a verdict after a failure"; exit 1; fi
grep -q "DSCWeb01 is in \['env_Dev', 'role_WebServer'\]" "$work/demo.log"
