#!/usr/bin/env bash
# Real ansible-inventory and ansible-playbook runs against a hostile data store (issue 12): nothing in the data runs
# (also through host names and keys, on ansible-core 2.16), vault values stay encrypted in explain output and
# traces, unreadable files are named once, and a broken cache costs a warning.
set -eux

# shellcheck source=../setup_strata_examples/examples.sh
source ../setup_strata_examples/examples.sh
examples=$(strata_examples)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ANSIBLE_NOCOLOR=true ANSIBLE_FORCE_COLOR=false
vault=(--vault-password-file "$examples/vault-password.txt")
here=$(pwd)

# says FILE PATTERN: FILE holds PATTERN (ansible-core 2.16 wraps warnings at 80 columns: join the lines)
says() {
    tr '\n' ' ' < "$1" | sed 's/  */ /g' | grep -Eq "$2" || { echo "expected /$2/ in $1:"; cat "$1"; exit 1; }
}
# nothing_ran: no command of the data left its mark in the working folder
nothing_ran() {
    if compgen -G "$work/run/PWNED*" > /dev/null; then echo "a template held in the data ran"; exit 1; fi
}

cp -r "$examples" "$work/store"
mkdir "$work/run"
cd "$work/run"          # where `id>PWNED` would write

# ---- host names and keys holding templates (a shell command without spaces or slashes)
template="{{lookup('pipe','id>PWNED')}}"
printf 'NodeName: "%s"\nEnvironment: Dev\nRole: WebServer\n' "$template" > "$work/store/data/AllNodes/Dev/Evil.yml"
printf 'Environment: Dev\nRole: WebServer\n' > "$work/store/data/AllNodes/Dev/${template/PWNED/PWNED2}.yml"
printf 'Nested:\n  "%s": 1\n' "${template/PWNED/PWNED3}" >> "$work/store/data/AllNodes/Dev/DSCWeb01.yml"

ansible-inventory -i "$work/store/nodes.hier.yml" "${vault[@]}" --list > "$work/list.json" 2> "$work/list.err"
says "$work/list.err" "Evil.yml: NodeName .*PWNED.* is not a usable host name: a host name is 1 to 253 ASCII letters"
says "$work/list.err" "the file name .*PWNED2.* is not a usable host name: .* the node is skipped"
python - "$work/list.json" <<'PY'
import json, sys
hosts = sorted(json.load(open(sys.argv[1]))['_meta']['hostvars'])
assert hosts == ['DSCFile01', 'DSCFile02', 'DSCWeb01', 'DSCWeb02'], hosts
PY
nothing_ran

# the collection's rsop role templates inventory_hostname and writes every host's data
ansible-playbook -i "$work/store/nodes.hier.yml" "${vault[@]}" "$here/../role_rsop/rsop.yml" \
    -e "rsop_dir=$work/rsop" -e rsop_provenance=true > "$work/rsop.log" 2>&1 || { cat "$work/rsop.log"; exit 1; }
[[ $(find "$work/rsop" -name '*.yml' | wc -l) -eq 4 ]]
grep -qF "PWNED3" "$work/rsop/DSCWeb01.yml"          # the key is written as data
nothing_ran

# keys of the data are never templates, also once they become values (2.16 templated them)
ansible-playbook -i "$work/store/nodes.hier.yml" "${vault[@]}" "$here/keys.yml" > "$work/keys.log" 2>&1 || { cat "$work/keys.log"; exit 1; }
nothing_ran

# strict: true makes an unusable name an error of the source
printf 'plugin: strata.hier.hier\nconfig: %s\nstrict: true\n' "$work/store/hier.yml" > "$work/strict.hier.yml"
ansible-inventory -i "$work/strict.hier.yml" "${vault[@]}" --list > /dev/null 2> "$work/strict.err" || true
says "$work/strict.err" "Evil.yml: NodeName .* is not a usable host name"
says "$work/strict.err" "Unable to parse .*strict.hier.yml|Failed to parse .*strict.hier.yml"
nothing_ran

# ---- explain and -vvv keep inline vault values encrypted
secret='D3v-S3cret!'
ansible-playbook -i "$examples/inventory.yml" "${vault[@]}" "$here/explain.yml" -e "config=$work/store/hier.yml" -vvv \
    > "$work/explain.log" 2>&1 || { cat "$work/explain.log"; exit 1; }
if grep -qF "$secret" "$work/explain.log"; then echo "a vault value was shown decrypted"; exit 1; fi

# ---- files that cannot be read: named (with the line) once, never an "unhandled exception"
expect_failure() {   # expect_failure NAME PATTERN: the lookup of Timezone fails with PATTERN
    if ansible-playbook -i "$examples/inventory.yml" "${vault[@]}" "$here/../lookup_hier/broken.yml" \
            -e "bad_config=$work/store/hier.yml" > "$work/$1.log" 2>&1; then
        echo "$1: the lookup did not fail"; exit 1
    fi
    says "$work/$1.log" "$2"
    if grep -q 'unhandled exception' "$work/$1.log"; then echo "$1: unhandled"; cat "$work/$1.log"; exit 1; fi
    python - "$work/$1.log" <<'PY'
import re, sys
fatal = next(line for line in open(sys.argv[1]) if line.startswith('fatal:'))
assert len(re.findall(r'Frankfurt\.yml', fatal)) == 1, fatal      # shown once ("X. X" on 2.16)
PY
}
frankfurt=$work/store/data/Locations/Frankfurt.yml
cp "$frankfurt" "$work/Frankfurt.yml"
printf 'Big: %s\n' "$(printf '1%.0s' $(seq 5000))" >> "$frankfurt"
expect_failure digits "Frankfurt.yml:[0-9]+: a number of 5000 digits; Python reads at most 4300"
printf 'Timezone: [unclosed\n  b: 1\n' > "$frankfurt"
expect_failure broken "Frankfurt.yml:2:4: did not find expected ',' or '\]'"
printf 'Timezone: !!python/object/apply:os.system [id]\n' > "$frankfurt"
expect_failure python_tag "Frankfurt.yml:1:11: could not determine a constructor for the tag"
printf 'Timezone: Caf\xe9\n' > "$frankfurt"
expect_failure latin1 "Frankfurt.yml is not UTF-8 text \(byte 0xe9 at offset 13\); save it as UTF-8"
python -c 'import sys; open(sys.argv[1], "w").write("a:\n  " + "- " * 60000 + "x\n")' "$frankfurt"
expect_failure deep "Frankfurt.yml:2: the data nests deeper than 500 levels"
cp "$work/Frankfurt.yml" "$frankfurt"
nothing_ran

# ---- a cache folder that cannot be created: a warning, and the inventory as without the cache
touch "$work/afile"
printf 'plugin: strata.hier.hier\nconfig: %s\ncache: true\ncache_plugin: ansible.builtin.jsonfile\ncache_connection: %s\n' \
    "$work/store/hier.yml" "$work/afile/cache" > "$work/cached.hier.yml"
ansible-inventory -i "$work/cached.hier.yml" "${vault[@]}" --host DSCWeb01 > "$work/cached.json" 2> "$work/cached.err"
says "$work/cached.err" "the inventory cache cannot be opened .* the inventory is built from the data"
grep -q '"Timezone": "GMT Standard Time"' "$work/cached.json"
