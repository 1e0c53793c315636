#!/usr/bin/env bash
# The vars plugin strata.hier.hier against static inventories; the short lookup form with no config=.
set -eux

# shellcheck source=../setup_strata_examples/examples.sh
source ../setup_strata_examples/examples.sh
examples=$(strata_examples)
vault=(--vault-password-file "$examples/vault-password.txt")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
here=$PWD

# group precedence, the lookup without config=, variable precedence (project/ansible.cfg enables the plugin)
cp -r project "$work/project"
(cd "$work/project" && ANSIBLE_CONFIG="$work/project/ansible.cfg" ansible-playbook -i inventory.yml vars-plugin.yml -e "vs_extra_vars='extra vars'" "$@")

# the lookup, the inventory plugin and the vars plugin give a host the same data
export ANSIBLE_VARS_ENABLED=host_group_vars,strata.hier.hier
ansible-playbook -i "$examples/inventory.yml" "${vault[@]}" agree.yml "$@"
for host in DSCWeb01 DSCFile02; do
    ANSIBLE_VARS_ENABLED=host_group_vars ansible-inventory -i "$examples/nodes.hier.yml" "${vault[@]}" --host "$host" > "$work/inventory-plugin.json"
    ansible-inventory -i "$examples/inventory.yml" "${vault[@]}" --host "$host" > "$work/vars-plugin.json"
    python "$here/same_as_inventory_plugin.py" "$work/inventory-plugin.json" "$work/vars-plugin.json"
done

# the short form: lookup_plugins/hier.py (a one-line re-export) and hier.yml beside the playbook
ANSIBLE_VARS_ENABLED=host_group_vars ansible-playbook -i "$examples/inventory.yml" "${vault[@]}" "$examples/short-form.yml" "$@"

# a broken data file fails the run, naming the file and line
printf 'Packages: [unclosed\nOther: 1\n' > "$work/project/data/Groups/web.yml"
if (cd "$work/project" && ANSIBLE_CONFIG="$work/project/ansible.cfg" ansible-playbook -i inventory.yml vars-plugin.yml > "$work/broken.txt" 2>&1); then
    echo "a broken data file did not fail the run"; exit 1
fi
grep -Eq "Groups/web.yml:2" "$work/broken.txt" || { cat "$work/broken.txt"; exit 1; }

# no configuration anywhere: the error lists the places searched
mkdir "$work/empty"
printf 'all:\n  hosts:\n    h1:\n' > "$work/empty/hosts.yml"
if (cd "$work/empty" && ansible-inventory -i hosts.yml --host h1 > "$work/none.txt" 2>&1); then
    echo "no configuration did not fail"; exit 1
fi
# (the playbook folder comes first in the list: the working directory, or ANSIBLE_PLAYBOOK_DIR as ansible-test sets it)
grep -q "no hierarchy configuration found; searched .*$work/empty/hier.yml, $work/empty/hiera.yaml, $work/empty/Datum.yml, then the setting" \
    "$work/none.txt" || { cat "$work/none.txt"; exit 1; }
