# shellcheck shell=bash
# Sourced by the script targets: sets $examples to the example store of the collection under test,
# as ansible-test (or the caller) put it on the collections path.
examples=
IFS=: read -ra _roots <<< "${ANSIBLE_COLLECTIONS_PATH:-${ANSIBLE_COLLECTIONS_PATHS:-}}"
for _root in "${_roots[@]}"; do
    if [[ -d $_root/ansible_collections/strata/hier/examples/hierarchy ]]; then
        examples=$_root/ansible_collections/strata/hier/examples/hierarchy
        break
    fi
done
[[ -n $examples ]] || { echo "strata.hier not found on ANSIBLE_COLLECTIONS_PATH"; exit 1; }
