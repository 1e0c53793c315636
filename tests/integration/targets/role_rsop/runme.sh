#!/usr/bin/env bash
# Real ansible-playbook runs of the strata.hier.rsop role over the example store's nodes.
set -eux

# shellcheck source=../setup_strata_examples/examples.sh
source ../setup_strata_examples/examples.sh
examples=$(strata_examples)
inventory=(-i "$examples/nodes.hier.yml")
vault=(--vault-password-file "$examples/vault-password.txt")
export ANSIBLE_FORCE_COLOR=false ANSIBLE_NOCOLOR=true     # the logs are grepped
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# the plain text of the example's vault values, which must appear in no file the role writes
secrets=('D3v-S3cret!' 'Pr0d-S3cret!')
ansible "${inventory[@]}" "${vault[@]}" DSCWeb01,DSCWeb02 -m ansible.builtin.debug -a 'var=AdminPassword' > "$work/secrets.txt"
for secret in "${secrets[@]}"; do grep -qF "$secret" "$work/secrets.txt"; done
# and of the whole-file vaulted Locations/London.yml (decrypted when loaded): the role withholds its data
file_secrets=('lon.contoso.com' '10.9.0.254')
export VAULTED_FILES=yes

# expected data: the inventory's variables of every host
mkdir "$work/expected"
hosts=$(ansible-inventory "${inventory[@]}" "${vault[@]}" --list \
    | python -c 'import json, sys; print(" ".join(sorted(json.load(sys.stdin)["_meta"]["hostvars"])))')
[[ $(wc -w <<< "$hosts") -eq 4 ]]
for host in $hosts; do
    ansible-inventory "${inventory[@]}" "${vault[@]}" --host "$host" --yaml > "$work/expected/$host.yml"
done

# rsop NAME ARGS...: play the role, the output in $work/NAME.log
rsop() {
    local name=$1
    shift
    ansible-playbook "${inventory[@]}" "${vault[@]}" rsop.yml "$@" > "$work/$name.log" 2>&1 || { cat "$work/$name.log"; return 1; }
}
# recap NAME: the PLAY RECAP lines of the run
recap() {
    grep -E '^[^ ].* : ok=[0-9]+ +changed=[0-9]+ ' "$work/$1.log"
}
# changes NAME: some host changed; unchanged NAME: all four hosts report changed=0
changes() {
    recap "$1" | grep -qv ' changed=0 '
}
unchanged() {
    [[ $(recap "$1" | grep -c ' changed=0 ') -eq 4 ]] || { echo "$1: not four unchanged hosts"; cat "$work/$1.log"; exit 1; }
}
no_secrets() {
    for secret in "${secrets[@]}" "${file_secrets[@]}"; do
        if grep -rqF "$secret" "$1"; then echo "$1 holds a vault value in plain text"; exit 1; fi
    done
}

# merged data without provenance; the second run changes nothing
rsop plain -e "rsop_dir=$work/plain"
changes plain
python check_rsop.py "$work/plain" "$work/expected" false
no_secrets "$work/plain"
if grep -rqE '^(hier_sources|ansible_host|inventory_hostname|groups):' "$work/plain"; then echo "not merged data"; exit 1; fi
rsop plain2 -e "rsop_dir=$work/plain"
unchanged plain2

# with provenance
rsop prov -e "rsop_dir=$work/prov" -e rsop_provenance=true
changes prov
python check_rsop.py "$work/prov" "$work/expected" true
no_secrets "$work/prov"
rsop prov2 -e "rsop_dir=$work/prov" -e rsop_provenance=true
unchanged prov2

# sidecar: <host>.provenance.json beside each unchanged file (hier_provenance of the inventory, sorted JSON)
rsop side -e "rsop_dir=$work/prov" -e rsop_provenance=sidecar
changes side
python check_rsop.py "$work/prov" "$work/expected" sidecar
no_secrets "$work/prov"
# shellcheck disable=SC2016  # a literal $ANSIBLE_VAULT
grep -qF '"__ansible_vault": "$ANSIBLE_VAULT;' "$work/prov/DSCWeb01.provenance.json"

# provenance turned off again rewrites the files as they were without it, and deletes the provenance files
rsop off -e "rsop_dir=$work/prov" -e rsop_provenance=false
changes off
diff -r "$work/plain" "$work/prov"

# inline: the same data, each value followed by its file and line
rsop inline -e "rsop_dir=$work/inline" -e rsop_provenance=inline
python check_rsop.py "$work/inline" "$work/expected" inline
no_secrets "$work/inline"

# --check --diff shows a change without writing it; the next run repairs the file
echo 'Edited: by hand' >> "$work/prov/DSCWeb01.yml"
cp "$work/prov/DSCWeb01.yml" "$work/edited.yml"
rsop check -e "rsop_dir=$work/prov" --check --diff
changes check
grep -q '^-Edited: by hand' "$work/check.log"
cmp "$work/prov/DSCWeb01.yml" "$work/edited.yml"
rsop repair -e "rsop_dir=$work/prov"
changes repair
diff -r "$work/plain" "$work/prov"

# pruning deletes the files of hosts that are gone, and only *.yml files
touch "$work/prov/DSCGone01.yml" "$work/prov/notes.txt"
rsop prune -e "rsop_dir=$work/prov" -e rsop_prune=true
changes prune
[[ ! -e $work/prov/DSCGone01.yml && -e $work/prov/notes.txt ]]
rm "$work/prov/notes.txt"
diff -r "$work/plain" "$work/prov"
rsop prune2 -e "rsop_dir=$work/prov" -e rsop_prune=true
unchanged prune2

# a relative rsop_dir is relative to the playbook's folder
cp rsop.yml "$work/rsop.yml"
ansible-playbook "${inventory[@]}" "${vault[@]}" "$work/rsop.yml" -e rsop_dir=relative > "$work/relative.log"
diff -r "$work/plain" "$work/relative"

# an inventory source without provenance: the role asks the lookup for the keys (and the provenance), so it writes
# what the inventory with provenance gives; rsop_provenance=true (hier_sources) still needs the inventory's
printf 'plugin: strata.hier.hier\nconfig: %s\n' "$examples/hier.yml" > "$work/noprov.hier.yml"
if ansible-playbook -i "$work/noprov.hier.yml" "${vault[@]}" rsop.yml -e "rsop_dir=$work/noprov" -e rsop_provenance=true \
    > "$work/noprov.log" 2>&1; then
    echo "no provenance and rsop_provenance=true: the role did not fail"; exit 1
fi
grep -q 'has no host variable hier_sources. Set provenance: true in the' "$work/noprov.log"
STRATA_HIER_CONFIG=$examples/hier.yml ansible-playbook -i "$work/noprov.hier.yml" "${vault[@]}" rsop.yml \
    -e "rsop_dir=$work/noprov" -e rsop_provenance=inline > "$work/noprov.log" 2>&1 || { cat "$work/noprov.log"; exit 1; }
diff -r "$work/inline" "$work/noprov"
ansible-playbook -i "$work/noprov.hier.yml" "${vault[@]}" rsop.yml -e "rsop_dir=$work/noprov-keys" \
    -e '{"rsop_keys": ["Timezone", "AdminPassword", "NotAKey"]}'
python check_rsop.py "$work/noprov-keys" "$work/expected" false Timezone AdminPassword NotAKey
no_secrets "$work/noprov-keys"

# no vault password is needed for inline vault values (a whole-file vaulted file needs one to load at all)
cp -r "$examples" "$work/store"
ansible-vault decrypt "${vault[@]}" "$work/store/data/Locations/London.yml"
rm "$work/store/vault-password.txt"
ansible-playbook -i "$work/store/nodes.hier.yml" rsop.yml -e "rsop_dir=$work/novault" > "$work/novault.log"
mkdir "$work/expected-novault"
for host in $hosts; do
    ansible-inventory -i "$work/store/nodes.hier.yml" --host "$host" --yaml > "$work/expected-novault/$host.yml"
done
VAULTED_FILES=no python check_rsop.py "$work/novault" "$work/expected-novault" false
grep -qF 'lon.contoso.com' "$work/novault/DSCWeb01.yml"      # no longer vaulted: written

# CI recipe of docs/rsop.md ("Failing when there is nothing to write"), its ansible.cfg and rsop.yml as written
# there: a failed inventory source or an empty inventory fails the run; without it, the run passes on nothing.
ci=$work/ci
cp -r "$examples" "$ci"
python ../setup_strata_examples/markdown_files.py "$examples/../../docs/rsop.md" "Failing when there is nothing to write" "$ci"
[[ -f $ci/ansible.cfg && -f $ci/rsop.yml ]]
# the trap: no vault password for the whole-file vaulted Locations/London.yml, the source fails, nothing is written
ansible-playbook -i "$ci/nodes.hier.yml" rsop.yml -e "rsop_dir=$ci/trap" > "$work/trap.log" 2>&1 || { cat "$work/trap.log"; exit 1; }
grep -q 'no hosts matched' "$work/trap.log"
[[ ! -e $ci/trap ]]
# the recipe's settings: the failed source fails the run
if ANSIBLE_CONFIG=$ci/ansible.cfg ansible-playbook -i "$ci/nodes.hier.yml" "$ci/rsop.yml" > "$work/ci-nopass.log" 2>&1; then
    cat "$work/ci-nopass.log"; echo "a failed inventory source passed"; exit 1
fi
grep -q 'Completely failed to parse inventory source .*nodes.hier.yml' "$work/ci-nopass.log" || { cat "$work/ci-nopass.log"; exit 1; }
# the recipe's host count: an inventory with no node fails the run (here a nodes glob that matches nothing)
sed -i 's|^nodes: .*|nodes: "NoSuchFolder/*"|' "$ci/hier.yml"
if ANSIBLE_CONFIG=$ci/ansible.cfg ansible-playbook -i "$ci/nodes.hier.yml" "${vault[@]}" "$ci/rsop.yml" > "$work/ci-empty.log" 2>&1; then
    cat "$work/ci-empty.log"; echo "an empty inventory passed"; exit 1
fi
grep -q 'The inventory has no host, so there would be nothing to write' "$work/ci-empty.log" || { cat "$work/ci-empty.log"; exit 1; }
[[ ! -e $ci/rsop ]]
# and with the password and nodes, the same files as the role writes anywhere
sed -i 's|^nodes: .*|nodes: "AllNodes/*/*"|' "$ci/hier.yml"
ANSIBLE_CONFIG=$ci/ansible.cfg ansible-playbook -i "$ci/nodes.hier.yml" "${vault[@]}" "$ci/rsop.yml" > "$work/ci.log" 2>&1 || { cat "$work/ci.log"; exit 1; }
diff -r "$work/plain" "$ci/rsop"

# --- issue 28's golden files: the README's first project as it is (its inventory source has no provenance: true),
# its data files without the heading comment the README gives them (the lines the issue names), the collection
# on the collections path, ansible-test's inventory setting left out (the project's ansible.cfg names its own)
first=$work/first
python ../setup_strata_examples/markdown_files.py "$examples/../../README.md" "A first project" "$first"
for file in "$first"/data/*.yml "$first"/data/*/*.yml; do sed -i '1{/^# data\//d}' "$file"; done
(cd "$first" && env -u ANSIBLE_INVENTORY ANSIBLE_CONFIG="$first/ansible.cfg" \
    ansible-playbook "$OLDPWD/rsop.yml" -e "rsop_dir=$first/rsop" -e rsop_provenance=inline) > "$work/first.log" 2>&1 ||
    { cat "$work/first.log"; exit 1; }
diff -u files/db01.inline.yml "$first/rsop/db01.yml"
# blame: the hosts and key paths a line feeds, shadows or knocks out (the collection's playbook by its name)
for where in data/common.yml:4 data/nodes/db01.yml:3; do
    (cd "$first" && env -u ANSIBLE_INVENTORY ANSIBLE_CONFIG="$first/ansible.cfg" ansible-playbook strata.hier.blame -e "where=$where" \
        -e out=blame.json) > "$work/blame.log" 2>&1 || { cat "$work/blame.log"; exit 1; }
    cat "$work/blame.log"
    python check_blame.py "$where" "$first/blame.json" "$work/blame.log"
done
