#!/usr/bin/env bash
# The inventory cache in Redis (community.general.redis), against a real redis-server on 127.0.0.1:
# several controllers share one computed inventory.
#
# Needs: redis-server (installed with apt-get when missing and running as root), the Python library `redis`
# in the interpreter running ansible (pip installed), and community.general, taken from the `ansible` package on
# PyPI (pip download, no Galaxy) and kept under ~/.cache/strata-hier-test/. strata.hier itself does not need it.
#
# What sharing needs (found by this test, see the checks below):
# - the cache key is the plugin's name and a hash of the source's path as given on the command line, made
#   absolute (Cacheable.get_cache_key): controllers share an entry only when they name the source by the same
#   absolute path; a copy of the source elsewhere gets an entry of its own;
# - the entry holds a fingerprint of the path, modification time and size of the configuration, the source and
#   every file of the data folder: a controller whose files differ in any of these merges again and overwrites
#   the entry. A data folder on a shared file system, or copied with its modification times (cp -a, rsync -a),
#   shares; a fresh git clone (new modification times) merges again;
# - the same ansible-core minor release: 2.16 and 2.19+ name the entry differently and store other payloads;
# - vault values go through Redis as their ciphertext ({"__ansible_vault": ...}) and decrypt when used with the
#   vault password, as without the cache (on 2.19+ the plugin stores them as marked ciphertext: ansible#86369).
set -eux

COMMUNITY_GENERAL_FROM=${STRATA_TEST_ANSIBLE_PACKAGE:-ansible==12.3.0}   # carries community.general 11.4.2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

# shellcheck source=../setup_strata_examples/examples.sh
source ../setup_strata_examples/examples.sh
examples=$(strata_examples)

work=$(mktemp -d)
redis_pid=
cleanup() {
    if [[ -n $redis_pid ]]; then
        kill "$redis_pid" 2> /dev/null || true
        wait "$redis_pid" 2> /dev/null || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT

# ------------------------------------------------------------------ redis-server
cache_root=${XDG_CACHE_HOME:-$HOME/.cache}/strata-hier-test
mkdir -p "$cache_root"
install_redis_server() {
    # policy-rc.d: no service of the package is started (this test runs its own server)
    local policy_added='' status=''
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && policy_added=1
    fi
    # DPkg::Lock::Timeout: wait for another apt-get on this machine rather than fail
    apt-get -o DPkg::Lock::Timeout=900 update -qq \
        && DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=900 install -y -qq redis-server > /dev/null \
        || status=$?
    [[ -n $policy_added ]] && rm -f /usr/sbin/policy-rc.d
    [[ -z $status ]] || { echo "apt-get install redis-server failed ($status)"; exit 1; }
}
if ! command -v redis-server > /dev/null; then
    if [[ $(id -u) == 0 ]] && command -v apt-get > /dev/null; then
        # the test suite runs this test for several ansible-core releases at once: one of them installs
        exec {apt_lock}> "$cache_root/apt-get.lock"
        flock "$apt_lock"
        command -v redis-server > /dev/null || install_redis_server
        flock -u "$apt_lock"
    else
        echo "redis-server is not installed: install it (Debian/Ubuntu: apt-get install redis-server) and run again"
        exit 1
    fi
fi

# ------------------------------------------------------------------ the interpreter running ansible, with `redis`
ansible_python=$(ansible --version | sed -n 's/^ *python version = .*(\([^()]*\))$/\1/p')
[[ -x $ansible_python ]] || { echo "cannot tell which Python runs ansible:"; ansible --version; exit 1; }
if ! "$ansible_python" -c 'import redis' 2> /dev/null; then
    "$ansible_python" -m pip install --disable-pip-version-check -q redis
fi

# ------------------------------------------------------------------ community.general, for this test only
general_root=$cache_root/community.general-from-${COMMUNITY_GENERAL_FROM//==/-}
if [[ ! -f $general_root/ansible_collections/community/general/MANIFEST.json ]]; then
    download=$work/download
    "$ansible_python" -m pip download --disable-pip-version-check -q --no-deps --only-binary=:all: \
        -d "$download" "$COMMUNITY_GENERAL_FROM"
    mkdir -p "$cache_root"
    partial=$(mktemp -d "$cache_root/.partial.XXXXXX")
    "$ansible_python" - "$partial" "$download"/ansible-*.whl <<'PY'
import sys
import zipfile

target, wheel = sys.argv[1:3]
prefix = 'ansible_collections/community/general/'
with zipfile.ZipFile(wheel) as archive:
    members = [name for name in archive.namelist() if name.startswith(prefix)]
    if not any(name == prefix + 'MANIFEST.json' for name in members):
        sys.exit('%s holds no community.general' % wheel)
    archive.extractall(target, members)
PY
    rm -rf "$general_root"
    mv "$partial" "$general_root" || [[ -f $general_root/ansible_collections/community/general/MANIFEST.json ]]
    rm -rf "$partial" "$download"
fi
export ANSIBLE_COLLECTIONS_PATH="$general_root:${ANSIBLE_COLLECTIONS_PATH:-${ANSIBLE_COLLECTIONS_PATHS:-}}"
ansible-doc -t cache community.general.redis > /dev/null

# ------------------------------------------------------------------ a redis-server of our own
mkdir "$work/redis"
for _attempt in 1 2 3; do
    port=$("$ansible_python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    redis-server --bind 127.0.0.1 --port "$port" --save '' --appendonly no --dir "$work/redis" \
        --logfile "$work/redis/redis.log" --daemonize no &
    redis_pid=$!
    for _wait in $(seq 50); do
        if "$ansible_python" -c 'import redis, sys; redis.Redis(port=int(sys.argv[1])).ping()' "$port" 2> /dev/null; then
            break 2
        fi
        kill -0 "$redis_pid" 2> /dev/null || break
        sleep 0.1
    done
    kill "$redis_pid" 2> /dev/null || true
    wait "$redis_pid" 2> /dev/null || true
    redis_pid=
done
[[ -n $redis_pid ]] || { echo "redis-server did not start:"; cat "$work/redis/redis.log"; exit 1; }

# redis_py SCRIPT ARGS...: run Python with `db`, a client of our server
redis_py() {
    local script=$1
    shift
    "$ansible_python" -c "import re, sys, redis; db = redis.Redis(port=$port); $script" "$@"
}
entries() {      # the inventory entries in the server
    redis_py 'print(len(db.keys("ansible_inventory_*")))'
}
tamper() {       # WelcomeMessage "Welcome" -> "FromTheCache" in the entries: plain JSON (2.16), a payload (2.19+)
    redis_py '
total = 0
for key in db.keys("ansible_inventory_*"):
    value, count = re.subn(rb"(\\?\")Welcome(\\?\")", rb"\1FromTheCache\2", db.get(key))
    db.set(key, value, keepttl=True)
    total += count
assert total, "no WelcomeMessage in the entries"'
}
welcome() {      # welcome SOURCE EXPECTED: DSCWeb01's WelcomeMessage through SOURCE is EXPECTED
    local source=$1 expected=$2
    ansible-inventory -i "$source" "${vault[@]}" --host DSCWeb01 > "$work/host.json"
    "$ansible_python" -c 'import json, sys; got = json.load(open(sys.argv[1]))["WelcomeMessage"]; assert got == sys.argv[2], (got, sys.argv[2])' \
        "$work/host.json" "$expected"
}

vault=(--vault-password-file "$examples/vault-password.txt")
write_source() {   # write_source PATH CONFIG
    cat > "$1" <<SOURCE
plugin: strata.hier.hier
config: $2
cache: true
cache_plugin: community.general.redis
cache_connection: 127.0.0.1:$port:0
SOURCE
}
cp -r "$examples" "$work/store"
# the data of whole-file vaulted files is never cached (it would be stored decrypted): use the store without one
ansible-vault decrypt "${vault[@]}" "$work/store/data/Locations/London.yml"
write_source "$work/redis.hier.yml" "$work/store/hier.yml"

# run 1 computes the inventory and stores it
[[ $(entries) == 0 ]]
welcome "$work/redis.hier.yml" Welcome
[[ $(entries) == 1 ]]
redis_py '
key, = db.keys("ansible_inventory_*")
assert db.zrank("ansible_cache_keys", key[len("ansible_inventory_"):]) is not None, "not in the key set"
assert 0 < db.ttl(key) <= 3600, db.ttl(key)
assert b"fingerprint" in db.get(key) and b"DSCWeb01" in db.get(key)'

# run 2 reads it: a value changed in Redis comes back
tamper
welcome "$work/redis.hier.yml" FromTheCache

# a second controller (its own home, working folder and configuration) naming the same source shares the entry;
# vault values come through Redis as ciphertext and decrypt with the vault password
mkdir -p "$work/controller2/home"
printf '[defaults]\nlocal_tmp = %s/controller2/tmp\n' "$work" > "$work/controller2/ansible.cfg"
(
    cd "$work/controller2"
    export HOME=$work/controller2/home ANSIBLE_CONFIG=$work/controller2/ansible.cfg
    welcome "$work/redis.hier.yml" FromTheCache
    ansible-playbook -i "$work/redis.hier.yml" "${vault[@]}" "$here/shared.yml" \
        -e "hier_config=$work/store/hier.yml" -e expected_welcome=FromTheCache
)
[[ $(entries) == 1 ]]

# a copy of the source and data at another path has an entry of its own
mkdir "$work/elsewhere"
cp -a "$work/store" "$work/elsewhere/store"
write_source "$work/elsewhere/redis.hier.yml" "$work/elsewhere/store/hier.yml"
welcome "$work/elsewhere/redis.hier.yml" Welcome
[[ $(entries) == 2 ]]

# the same path with the same files (modification times kept) shares; new modification times merge again
tamper
mv "$work/store" "$work/store.old"
cp -a "$work/store.old" "$work/store"
welcome "$work/redis.hier.yml" FromTheCache
rm -rf "$work/store"
cp -r "$work/store.old" "$work/store"
welcome "$work/redis.hier.yml" Welcome

# a changed data file invalidates the entry
tamper
welcome "$work/redis.hier.yml" FromTheCache
sleep 0.01
printf 'WelcomeMessage: Hello\n' >> "$work/store/data/AllNodes/Dev/DSCWeb01.yml"
welcome "$work/redis.hier.yml" Hello
[[ $(entries) == 2 ]]
