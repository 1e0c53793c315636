#!/usr/bin/env bash
# Real ansible-playbook runs of the strata.hier.hier lookup against the example store.
set -eux

# shellcheck source=../setup_strata_examples/examples.sh
source ../setup_strata_examples/examples.sh
examples=$(strata_examples)
vault=(--vault-password-file "$examples/vault-password.txt")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the example inventory away from the example hier.yml, which the lookup would otherwise find beside it without
# config= (docs/hierarchy.md, "Finding the configuration"): these runs test the setting
mkdir "$work/hosts"
cp "$examples/inventory.yml" "$work/hosts/inventory.yml"
inventory=(-i "$work/hosts/inventory.yml" -i inventory.yml)

ansible-playbook "${inventory[@]}" "${vault[@]}" lookups.yml -e "examples=$examples" "$@"
# the preload callback (the lookup loaded before the workers fork): the same answers, and no warning from it
if ! ANSIBLE_CALLBACKS_ENABLED=strata.hier.preload ansible-playbook "${inventory[@]}" "${vault[@]}" lookups.yml \
    -e "examples=$examples" "$@" > "$work/preload.txt" 2>&1; then
    cat "$work/preload.txt"; exit 1
fi
if grep -i "callback" "$work/preload.txt"; then echo "the preload callback warned"; exit 1; fi

# config from the environment, then from ansible.cfg
STRATA_HIER_CONFIG="$examples/hier.yml" ansible-playbook "${inventory[@]}" "${vault[@]}" config-sources.yml "$@"
printf '[strata_hier]\nconfig = %s\n' "$examples/data/Datum.yml" > "$work/ansible.cfg"
ANSIBLE_CONFIG="$work/ansible.cfg" ansible-playbook "${inventory[@]}" "${vault[@]}" config-sources.yml "$@"

# A relative config is relative to where it is set (docs/hierarchy.md): ansible.cfg's folder, the working
# directory for STRATA_HIER_CONFIG, the playbook's folder for config=. The project is laid out so that each
# rule finds the store and the other two would not: ./store, ./playbooks/<playbook>, the commands run from /.
project=$work/project
mkdir -p "$project/playbooks"
cp -r "$examples" "$project/store"
cp config-sources.yml config-relative.yml "$project/playbooks/"
abs_inventory=(-i "$work/hosts/inventory.yml" -i "$PWD/inventory.yml")
printf '[strata_hier]\nconfig = store/hier.yml\n' > "$project/ansible.cfg"
(cd / && ANSIBLE_CONFIG="$project/ansible.cfg" ansible-playbook "${abs_inventory[@]}" "${vault[@]}" "$project/playbooks/config-sources.yml" "$@")
(cd "$project" && STRATA_HIER_CONFIG=store/hier.yml ansible-playbook "${abs_inventory[@]}" "${vault[@]}" playbooks/config-sources.yml "$@")
# config= wins over ansible.cfg, relative to the playbook
printf '[strata_hier]\nconfig = nowhere/hier.yml\n' > "$project/ansible.cfg"
(cd / && ANSIBLE_CONFIG="$project/ansible.cfg" ansible-playbook "${abs_inventory[@]}" "${vault[@]}" "$project/playbooks/config-relative.yml" -e config=../store/data/Datum.yml "$@")
# the error names the path it resolved
if (cd / && ANSIBLE_CONFIG="$project/ansible.cfg" ansible-playbook "${abs_inventory[@]}" "${vault[@]}" "$project/playbooks/config-sources.yml" > "$work/cfg-missing.txt" 2>&1); then
    echo "a missing configuration from ansible.cfg did not fail"; exit 1
fi
grep -q "$project/nowhere/hier.yml not found" "$work/cfg-missing.txt" || { cat "$work/cfg-missing.txt"; exit 1; }

# -vvv prints the levels read, one line each, each word once
ansible-playbook "${inventory[@]}" "${vault[@]}" broken.yml -e "bad_config=$examples/hier.yml" -vvv > "$work/trace.txt"
grep -q "strata.hier.hier DSCFile01 Timezone: rule 'default_lookup_options', strategy MostSpecific" "$work/trace.txt"
grep -Eq "^  Locations/%\{Location\} +found +Locations/Frankfurt.yml$" "$work/trace.txt"
grep -Eq "^  Roles/%\{Role\} +not found +Roles/FileServer$" "$work/trace.txt"
if grep -E "not found.*not found" "$work/trace.txt"; then echo "the trace repeats itself"; exit 1; fi
ansible -i inventory.yml Orphan01 -m ansible.builtin.debug -vvv \
    -a "msg={{ lookup('strata.hier.hier', 'Timezone', config='$examples/hier.yml', default='') }}" > "$work/trace-skipped.txt" 2>&1
grep -Eq "^  Locations/%\{Location\} +skipped +\(variable 'Location' is undefined\)$" "$work/trace-skipped.txt" \
    || { cat "$work/trace-skipped.txt"; exit 1; }

# expect_failure NAME PATTERN CONFIG [KEY]: the lookup fails and says PATTERN
expect_failure() {
    local name=$1 pattern=$2 config=$3 key=${4:-Timezone}
    if ansible-playbook "${inventory[@]}" "${vault[@]}" broken.yml -e "bad_config=$config" -e "key=$key" > "$work/$name.txt" 2>&1; then
        echo "$name: the lookup did not fail"; exit 1
    fi
    grep -Eq "$pattern" "$work/$name.txt" || { echo "$name: expected /$pattern/ in:"; cat "$work/$name.txt"; exit 1; }
}

# a store to break, one copy per case
fresh_store() {
    rm -rf "$work/store"
    cp -r "$examples" "$work/store"
}

fresh_store
printf 'Timezone: [unclosed\n  Other: 1\n' > "$work/store/data/Roles/FileServer.yml"
expect_failure malformed 'FileServer.yml.*line 2|FileServer.yml.*:2' "$work/store/hier.yml"

expect_failure missing_config 'hierarchy configuration .*nowhere.yml not found' "$work/nowhere.yml"

fresh_store
printf 'hierachy: []\n' >> "$work/store/hier.yml"
expect_failure unknown_key "hier.yml:[0-9]+: unknown key 'hierachy'.*valid keys: datadir, hierarchy" "$work/store/hier.yml"

fresh_store
sed -i 's/^  WindowsFeatures: Unique/  WindowsFeatures: Uniq/' "$work/store/hier.yml"
expect_failure unknown_strategy "hier.yml:[0-9]+: unknown strategy 'Uniq' for lookup_options 'WindowsFeatures'; valid names: MostSpecific" "$work/store/hier.yml"

fresh_store
sed -i 's|  - "Roles/%{Role}"|  - "Roles/%{Role}/../../../.."|' "$work/store/hier.yml"
expect_failure traversal "would leave datadir" "$work/store/hier.yml"

fresh_store
ln -s /etc "$work/store/data/Locations/Frankfurt"
rm "$work/store/data/Locations/Frankfurt.yml"
expect_failure symlink "outside the data folder" "$work/store/hier.yml" "Timezone/hostname"

fresh_store
printf "Owner: '[x={ \$Node.Role } =]'\n" >> "$work/store/data/Environments/Dev.yml"
expect_failure datum_handler "Environments/Dev.yml:[0-9]+: key 'Owner' holds the Datum handler" "$work/store/hier.yml" Owner

# a Datum.yml store evaluates the handler forms DscWorkshop uses; other PowerShell is an error naming file and line
fresh_store
printf "Owner: '[x={ Get-Date }=]'\n" >> "$work/store/data/Environments/Dev.yml"
expect_failure datum_powershell "Environments/Dev.yml:[0-9]+: key 'Owner': the Datum handler .*is not evaluated.*supported forms" "$work/store/data/Datum.yml" Owner

fresh_store
sed -i 's/^  WindowsFeatures: Unique/  WindowsFeatures: {merge_hash_array: DeepTuple, merge_options: {tuple_keys: Name}}/' "$work/store/hier.yml"
expect_failure tuple_keys "tuple_keys must be a list" "$work/store/hier.yml"
