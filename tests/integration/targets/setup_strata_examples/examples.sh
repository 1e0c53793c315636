# shellcheck shell=bash
# Sourced by the script targets: `examples=$(strata_examples)` gives the example store of the collection under
# test, as ansible-test (or the caller) put it on the collections path. (A function rather than a variable set
# here: ansible-test's shellcheck does not follow `source`.)
strata_examples() {
    local root roots
    IFS=: read -ra roots <<< "${ANSIBLE_COLLECTIONS_PATH:-${ANSIBLE_COLLECTIONS_PATHS:-}}"
    for root in "${roots[@]}"; do
        if [[ -d $root/ansible_collections/strata/hier/examples/hierarchy ]]; then
            echo "$root/ansible_collections/strata/hier/examples/hierarchy"
            return
        fi
    done
    echo "strata.hier not found on ANSIBLE_COLLECTIONS_PATH" >&2
    return 1
}
