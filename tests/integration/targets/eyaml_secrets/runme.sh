#!/usr/bin/env bash
# hiera-eyaml secrets (issue 31) through real runs: the lookup and the host variables decrypt them, nothing else
# ever shows their text (explain, provenance, -vvv, the rsop role, the inventory cache, the check playbook), and
# without the private key the inventory warns and the lookup fails, each naming the value's file and line.
set -eux

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ANSIBLE_NOCOLOR=true ANSIBLE_FORCE_COLOR=false
export EYAML_SEEDED_SECRET='Ey4ml-S3cret!'
here=$(pwd)
repo=$work/repo

python files/make_repo.py "$repo" "$EYAML_SEEDED_SECRET"
unset STRATA_HIER_EYAML_PRIVATE_KEY STRATA_HIER_EYAML_PUBLIC_KEY

# no_secret FILE...: the seeded secret is in none of them
no_secret() {
    if grep -rlF "$EYAML_SEEDED_SECRET" "$@"; then echo "an eyaml value was written or shown decrypted"; exit 1; fi
}

for config in hiera.yaml hier.yml; do
    if [[ $config == hiera.yaml ]]; then nodes='data/nodes/*.yaml'; else nodes='nodes/*'; fi
    printf 'plugin: strata.hier.hier\nconfig: %s\nnodes: "%s"\nprovenance: true\n' "$repo/$config" "$nodes" \
        > "$work/site.hier.yml"
    ansible-playbook -i "$work/site.hier.yml" "$here/lookup.yml" -e "config=$repo/$config" -vvv \
        > "$work/lookup-$config.log" 2>&1 || { cat "$work/lookup-$config.log"; exit 1; }
    grep -q 'ENC\[PKCS7,' "$work/lookup-$config.log"
    no_secret "$work/lookup-$config.log"

    # the rsop role writes the ENC[...] text, inline provenance too
    ansible-playbook -i "$work/site.hier.yml" "$here/../role_rsop/rsop.yml" -e "rsop_dir=$work/rsop-$config" \
        -e rsop_provenance=inline > "$work/rsop-$config.log" 2>&1 || { cat "$work/rsop-$config.log"; exit 1; }
    grep -q 'password: ENC\[PKCS7,' "$work/rsop-$config/web1.yml"
    no_secret "$work/rsop-$config" "$work/rsop-$config.log"
done

# the inventory cache holds the ENC[...] text, and a cached run still decrypts
printf 'plugin: strata.hier.hier\nconfig: %s\nnodes: "data/nodes/*.yaml"\ncache: true\ncache_plugin: ansible.builtin.jsonfile\ncache_connection: %s\n' \
    "$repo/hiera.yaml" "$work/cache" > "$work/cached.hier.yml"
for round in 1 2; do
    ansible-playbook -i "$work/cached.hier.yml" "$here/lookup.yml" -e "config=$repo/hiera.yaml" \
        > "$work/cached-$round.log" 2>&1 || { cat "$work/cached-$round.log"; exit 1; }
done
grep -rq 'ENC\[PKCS7,' "$work/cache"
no_secret "$work/cache" "$work/cached-1.log" "$work/cached-2.log"

# the check playbook: the constraints hold (vault: required counts an eyaml value), no text in its reports
(cd "$repo" && ansible-playbook -i localhost, strata.hier.check -e source=hier.yml -e "out=$work/check") \
    > "$work/check.log" 2>&1 || { cat "$work/check.log"; exit 1; }
grep -q '0 findings' "$work/check/check.txt"
no_secret "$work/check" "$work/check.log"

# without the private key: plain values still answer; the inventory warns, the lookup fails, naming file and line
mv "$repo/keys/private_key.pkcs7.pem" "$work/moved.pem"
printf 'plugin: strata.hier.hier\nconfig: %s\nnodes: "data/nodes/*.yaml"\n' "$repo/hiera.yaml" > "$work/site.hier.yml"
ansible-inventory -i "$work/site.hier.yml" --host web2 > "$work/nokey.json" 2> "$work/nokey.err"
tr '\n' ' ' < "$work/nokey.err" | sed 's/  */ /g' |
    grep -Eq 'data/(common.yaml:6|nodes/web1.yaml:3): decrypting the eyaml value needs the key .* any other eyaml value'
[[ $(tr '\n' ' ' < "$work/nokey.err" | sed 's/  */ /g' | grep -o 'decrypting the eyaml value' | wc -l) -eq 1 ]]  # once
ansible -i web1, -c local localhost -m ansible.builtin.debug \
    -a "msg={{ lookup('strata.hier.hier', 'plain', config='$repo/hiera.yaml') }}" > "$work/plain.log" 2>&1 || true
rc=0
ansible -i web1, -c local web1 -m ansible.builtin.debug \
    -a "msg={{ lookup('strata.hier.hier', 'db', config='$repo/hiera.yaml') }}" > "$work/nokey.log" 2>&1 || rc=$?
[[ $rc -ne 0 ]] || { cat "$work/nokey.log"; echo "an eyaml value was answered without its key"; exit 1; }
tr '\n' ' ' < "$work/nokey.log" | sed 's/  */ /g' | grep -q 'data/nodes/web1.yaml:3: decrypting the eyaml value needs the key'
no_secret "$work/nokey.err" "$work/nokey.log"
