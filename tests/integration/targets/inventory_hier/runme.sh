#!/usr/bin/env bash
# Real ansible-inventory and ansible-playbook runs of the strata.hier.hier inventory plugin.
set -eux

# shellcheck source=../setup_strata_examples/examples.sh
source ../setup_strata_examples/examples.sh
examples=$(strata_examples)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
vault=(--vault-password-file "$examples/vault-password.txt")
export ANSIBLE_INVENTORY_UNPARSED_WARNING=true

# says FILE PATTERN: FILE holds PATTERN, spaces and line ends ignored on both sides (ansible-core 2.16 wraps
# warnings at 80 columns, anywhere in a long path as well as at spaces)
says() {
    tr -d ' \n' < "$1" | grep -Eq "${2// /}"
}

# host vars == lookups, provenance, groups
ansible-playbook -i "$examples/nodes.hier.yml" "${vault[@]}" parity.yml -e "hier_config=$examples/hier.yml" "$@"

# a Datum.yml source gives the same inventory as hier.yml
printf 'plugin: strata.hier.hier\nconfig: %s\n' "$examples/hier.yml" > "$work/a.hier.yml"
printf 'plugin: strata.hier.hier\nconfig: %s\n' "$examples/data/Datum.yml" > "$work/b.hier.yml"
ansible-inventory -i "$work/a.hier.yml" "${vault[@]}" --list > "$work/a.json"
ansible-inventory -i "$work/b.hier.yml" "${vault[@]}" --list > "$work/b.json"
python -c 'import json, sys; a, b = (json.load(open(p)) for p in sys.argv[1:]); assert a == b and len(a["_meta"]["hostvars"]) == 4, "differ"' "$work/a.json" "$work/b.json"

# the DscWorkshop-shaped Datum store: handler expressions evaluated, what needs PowerShell a warning (Datum.yml says
# DatumHandlersThrowOnError: false)
ansible-inventory -i "$examples/dscworkshop.hier.yml" --host FS02 > "$work/fs02.json" 2> "$work/fs02.err"
python -c 'import json, sys; v = json.load(open(sys.argv[1])); assert v["Description"] == "FileServer in Prod", v; \
assert v["DscTagging"]["Layers"][0] == "AllNodes\\Prod\\FS02", v; assert v["ComputerSettings"]["JoinOU"] == "CN=Computers,dc=example,dc=com", v' "$work/fs02.json"
says "$work/fs02.err" "Domain.yml:[0-9]+: key 'DomainJoinCredentials': \[ENC=...\] .*Ansible vault"

# cache: with the whole-file vaulted Locations/London.yml, nothing is cached (its data would be stored decrypted)
cp -r "$examples" "$work/store"
cat > "$work/cached.hier.yml" <<SOURCE
plugin: strata.hier.hier
config: $work/store/hier.yml
cache: true
cache_plugin: ansible.builtin.jsonfile
cache_connection: $work/cache
SOURCE
ansible-inventory -i "$work/cached.hier.yml" "${vault[@]}" --host DSCWeb01 > "$work/run0.json" 2> "$work/run0.err"
says "$work/run0.err" "the inventory is not cached: the data of 2 host\(s\) \(DSCWeb01, DSCWeb02\) comes in part from whole-file vaulted files"
[[ ! -e $work/cache ]] || [[ -z $(ls -A "$work/cache") ]]
# without it, the second run reads the cache, a changed data file invalidates it
ansible-vault decrypt "${vault[@]}" "$work/store/data/Locations/London.yml"
ansible-inventory -i "$work/cached.hier.yml" "${vault[@]}" --host DSCWeb01 > "$work/run1.json"
grep -q '"WelcomeMessage": "Welcome"' "$work/run1.json"
cached=$(ls "$work"/cache/*)
sed -i -E 's/Welcome(\\?")/FromTheCache\1/' "$cached"    # plain JSON (2.16) or a tagged payload (2.19+)
ansible-inventory -i "$work/cached.hier.yml" "${vault[@]}" --host DSCWeb01 > "$work/run2.json"
grep -q '"WelcomeMessage": "FromTheCache"' "$work/run2.json"      # no merge: the cache was used
# a vault value read from the cache decrypts (ansible-core 2.19+ alone would give its ciphertext as text: ansible#86369)
ansible -i "$work/cached.hier.yml" "${vault[@]}" DSCWeb01 -m ansible.builtin.assert \
    -a "that=\"AdminPassword == lookup('strata.hier.hier', 'AdminPassword', config='$work/store/hier.yml') and AdminPassword is not search('ANSIBLE_VAULT')\"" \
    > "$work/vault.out"
grep -q 'All assertions passed' "$work/vault.out"
sleep 0.01
printf 'WelcomeMessage: Hello\n' >> "$work/store/data/AllNodes/Dev/DSCWeb01.yml"
ansible-inventory -i "$work/cached.hier.yml" "${vault[@]}" --host DSCWeb01 > "$work/run3.json"
grep -q '"WelcomeMessage": "Hello"' "$work/run3.json"             # a data file changed: merged again

# expect_warning NAME PATTERN SOURCE...: the source fails to load with PATTERN, others still load
expect_warning() {
    local name=$1 pattern=$2
    shift 2
    ansible-inventory "$@" "${vault[@]}" --list > "$work/$name.json" 2> "$work/$name.err" || true
    says "$work/$name.err" "$pattern" || { echo "$name: expected /$pattern/ in:"; cat "$work/$name.err"; exit 1; }
}
printf 'all:\n  hosts:\n    standalone01:\n' > "$work/static.yml"

printf 'plugin: strata.hier.hier\nconfig: %s\nprovenence: true\n' "$examples/hier.yml" > "$work/typo.hier.yml"
expect_warning unknown_option "provenence" -i "$work/typo.hier.yml"

fresh_store() {
    rm -rf "$work/store"
    cp -r "$examples" "$work/store"
}
fresh_store
printf 'NodeName: [DSC, Web03]\nEnvironment: Dev\n' > "$work/store/data/AllNodes/Dev/DSCWeb03.yml"
expect_warning unusable_name "AllNodes/Dev/DSCWeb03.yml: NodeName .* is not a usable host name" -i "$work/cached.hier.yml"

fresh_store
sed 's/NodeName: DSCWeb01/NodeName: DSCFile01/' "$examples/data/AllNodes/Dev/DSCWeb01.yml" > "$work/store/data/AllNodes/Dev/DSCWeb01.yml"
expect_warning duplicate "2 nodes are named 'DSCFile01': .*DSCFile01.yml, .*DSCWeb01.yml" -i "$work/cached.hier.yml"

fresh_store
printf 'NodeName: DSCWeb09\nRole: [unclosed\n' > "$work/store/data/AllNodes/Dev/DSCWeb09.yml"
expect_warning malformed "DSCWeb09.yml" -i "$work/cached.hier.yml" -i "$work/static.yml"
says "$work/malformed.err" "DSCWeb09.yml:[0-9]+|DSCWeb09.yml.*line [0-9]+|line [0-9]+.*DSCWeb09.yml"
grep -q standalone01 "$work/malformed.json"                     # the other source still loaded

fresh_store
printf 'my-key: 1\n' >> "$work/store/data/Roles/WebServer.yml"
ansible-inventory -i "$work/cached.hier.yml" "${vault[@]}" --host DSCWeb01 > "$work/badname.json" 2> "$work/badname.err"
says "$work/badname.err" "'my-key' \(in Roles/WebServer.yml:[0-9]+\) is not a valid variable name"
if grep -q 'my-key' "$work/badname.json"; then echo "my-key became a host variable"; exit 1; fi

# a host name that is no file name (the rsop role writes <name>.yml) is refused
fresh_store
printf 'Name: ../escaped\nEnvironment: Dev\n' > "$work/store/data/AllNodes/Dev/DSCWeb05.yml"
expect_warning slash_name "DSCWeb05.yml: Name '../escaped' is not a usable host name" -i "$work/cached.hier.yml"

# compose sees inventory_hostname, and a template held in the data is never rendered (2.16 would)
fresh_store
printf 'Cmd: "{{ 40 + 2 }}"\n' >> "$work/store/data/Baselines/Security.yml"
cat > "$work/compose.hier.yml" <<SOURCE
plugin: strata.hier.hier
config: $work/store/hier.yml
strict: true
compose:
  fqdn: inventory_hostname ~ '.contoso.com'
  cmd_copy: Cmd
SOURCE
ansible-inventory -i "$work/compose.hier.yml" "${vault[@]}" --host DSCWeb01 > "$work/compose.json"
python - "$work/compose.json" <<'PY'
import json, sys
host = json.load(open(sys.argv[1]))
text = lambda value: value.get('__ansible_unsafe', value) if isinstance(value, dict) else value
assert text(host['fqdn']) == 'DSCWeb01.contoso.com', host['fqdn']
assert text(host['cmd_copy']) == '{{ 40 + 2 }}', host['cmd_copy']
PY
