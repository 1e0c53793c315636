#!/usr/bin/env bash
# The README's "Install and use" as a new user meets it: the collection built into a tarball (its file list
# checked), installed with ansible-galaxy into an empty project, and the README's first project run there with
# nothing of the test harness around (no ANSIBLE_* variable, the project's own ansible.cfg).
set -eux

# shellcheck source=../setup_strata_examples/examples.sh
source ../setup_strata_examples/examples.sh
root=$(cd "$(strata_examples)/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- the built collection
ansible-galaxy collection build --output-path "$work/dist" "$root"
tarballs=("$work"/dist/strata-hier-*.tar.gz)
[[ ${#tarballs[@]} -eq 1 && -f ${tarballs[0]} ]]
tarball=${tarballs[0]}
tar -tzf "$tarball" > "$work/files.txt"
for wanted in LICENSE README.md MANIFEST.json meta/runtime.yml meta/execution-environment.yml \
    meta/ee-requirements.txt plugins/lookup/hier.py roles/rsop/tasks/main.yml examples/hierarchy/hier.yml; do
    grep -qx "$wanted" "$work/files.txt" || { echo "the tarball lacks $wanted"; exit 1; }
done
tar -xzOf "$tarball" LICENSE | head -n 2 | tr -s ' ' | grep -q 'GNU GENERAL PUBLIC LICENSE Version 3' ||
    tar -xzOf "$tarball" LICENSE | head -n 3 | grep -q 'Version 3, 29 June 2007'
if grep -E '(^|/)vault-password|^(tests/output|\.build|\.venvs|\.ansible|\.git|scripts|bench|docs/site)(/|$)' \
    "$work/files.txt"; then
    echo "the tarball holds secrets or build and test files"; exit 1
fi
if tar -xzOf "$tarball" MANIFEST.json | grep -q 'example\.invalid'; then echo "placeholder URLs in MANIFEST.json"; exit 1; fi

# --- an empty project: the README's ansible.cfg to install with, the collection installed, then the README's files
project=$work/project
mkdir "$project"
python ../setup_strata_examples/markdown_files.py "$root/README.md" "Install the collection" "$project"
clean_env=()
for name in $(compgen -e ANSIBLE_); do clean_env+=(-u "$name"); done
# as_user CMD...: CMD in the project, without the test harness's ANSIBLE_* variables
as_user() {
    (cd "$project" && env "${clean_env[@]}" ANSIBLE_NOCOLOR=true "$@")
}
as_user ansible-galaxy collection install -p ./collections "$tarball" > "$work/install.txt" 2>&1 || { cat "$work/install.txt"; exit 1; }
cat "$work/install.txt"
if grep -q '\[WARNING\]' "$work/install.txt"; then echo "ansible-galaxy warned"; exit 1; fi
python ../setup_strata_examples/markdown_files.py "$root/README.md" "A first project" "$project"
as_user ansible-galaxy collection list strata.hier > "$work/list.txt"
grep -q "^# $project/collections/ansible_collections" "$work/list.txt" || { cat "$work/list.txt"; exit 1; }
as_user ansible-doc -t lookup strata.hier.hier > "$work/doc.txt"
grep -q "$project/collections/ansible_collections/strata/hier/plugins/lookup/hier.py" "$work/doc.txt"

# the settings of the README's ansible.cfg as Ansible reads them (a comment after a value would be part of it)
as_user ansible-config dump --only-changed > "$work/config.txt"
cat "$work/config.txt"
grep -qx "CALLBACKS_ENABLED($project/ansible.cfg) = \['strata.hier.preload'\]" "$work/config.txt"
grep -qx "INVENTORY_ENABLED($project/ansible.cfg) = \['strata.hier.hier', 'host_list'\]" "$work/config.txt"
grep -qx "INVENTORY_ANY_UNPARSED_IS_FAILED($project/ansible.cfg) = True" "$work/config.txt"

# broken_config TEXT MESSAGE: with TEXT as its hier.yml the README's play fails (exit 1) with one error, MESSAGE,
# naming hier.yml, from the collection's inventory plugin alone (no other plugin's guess about the source)
broken_config() {
    local rc=0
    printf '%s' "$1" > "$project/hier.yml"
    as_user ansible-playbook playbook.yml > "$work/broken.txt" 2>&1 || rc=$?
    cat "$work/broken.txt"
    [[ $rc -eq 1 ]] || { echo "a broken hier.yml: ansible-playbook exited $rc"; exit 1; }
    # ansible-core 2.16 wraps warnings at 80 columns: compare without spaces and line breaks
    tr -d ' \n' < "$work/broken.txt" | grep -qF "$(printf '%s' "$project/hier.yml:$2" | tr -d ' ')" ||
        { echo "no error naming hier.yml:$2"; exit 1; }
    if grep -Eq "with '?(auto|yaml|ini|toml|host_list|script)'?( |$)" "$work/broken.txt"; then
        echo "other inventory plugins tried the source"; exit 1
    fi
    (($(grep -c '\[WARNING\]' "$work/broken.txt") <= 1)) || { echo "more than one warning"; exit 1; }
}
cp "$project/hier.yml" "$work/hier.yml"
broken_config $'datadir: data\nhierarchy: [common\n' "3:1: did not find expected ',' or ']'"
broken_config $'datadir: data\nhierarchy: [common]\nlevels: [common]\n' "3: unknown key 'levels' in the hierarchy configuration"
cp "$work/hier.yml" "$project/hier.yml"

# the README's commands and what it says they print
as_user ansible-inventory --graph --vars > "$work/graph.txt" 2>&1 || { cat "$work/graph.txt"; exit 1; }
cat "$work/graph.txt"
grep -A1 -- '--@role_web:' "$work/graph.txt" | grep -q -- '--web01$'
grep -A1 -- '--@role_db:' "$work/graph.txt" | grep -q -- '--db01$'
if grep -q '\[WARNING\]' "$work/graph.txt"; then echo "ansible-inventory warned"; exit 1; fi
as_user ansible-playbook playbook.yml > "$work/play.txt" 2>&1 || { cat "$work/play.txt"; exit 1; }
cat "$work/play.txt"
# the two lines the README shows (the db01 one shortened there)
expected_web="web01: packages ['nginx', 'openssh-server', 'chrony'], NTP {'servers': ['0.pool.ntp.org', '1.pool.ntp.org'], 'makestep': '1.0 3'}"
expected_db="db01: packages ['ntpsec', 'postgresql', 'openssh-server'], NTP {'makestep': '0.1 -1', 'servers': "
grep -qF "# $expected_web" "$root/README.md"
grep -qF "\"msg\": \"$expected_web\"" "$work/play.txt"
grep -qF "\"msg\": \"$expected_db" "$work/play.txt"
for host in web01 db01; do
    grep -Eq "^$host +: ok=2 +changed=0 +unreachable=0 +failed=0 " "$work/play.txt"
done
if grep -q '\[WARNING\]' "$work/play.txt"; then echo "ansible-playbook warned"; exit 1; fi

# --- a level whose variable is misspelt (issue 33, item 1): the play still runs, and one warning names the level and
# its line in hier.yml (Ansible wraps warnings at the terminal's width: compared without spaces and line breaks)
typo=$work/typo
cp -R "$project" "$typo"
sed 's|"roles/%{Role}"|"roles/%{Rol}"|' "$project/hier.yml" > "$typo/hier.yml"
line=$(grep -n 'roles/%{Rol}' "$typo/hier.yml" | cut -d: -f1)
[[ -n $line ]] || { echo "the README's hier.yml has no level roles/%{Role} to misspell"; exit 1; }
(cd "$typo" && env "${clean_env[@]}" ANSIBLE_NOCOLOR=true ansible-playbook playbook.yml) > "$work/typo.txt" 2>&1 ||
    { cat "$work/typo.txt"; exit 1; }
cat "$work/typo.txt"
said=$(tr -d ' \n' < "$work/typo.txt")
expected="hier.yml:$line: level 'roles/%{Rol}': variable 'Rol' is undefined for both hosts, so the level is skipped"
[[ $said == *"${expected// /}"* ]] || { echo "no warning naming the misspelt level and its line in hier.yml"; exit 1; }
[[ $(grep -o "variable'Rol'isundefined" <<< "$said" | wc -l) -eq 1 ]] || { echo "not one warning for the level"; exit 1; }

# --- guardrails (issue 30): the README's constraints and seeded violations added to the first project (the same lines
# as tests/unit/plugins/readme_project.py's GUARDED_FILES); the check job fails with exactly those five findings, in
# JSON and SARIF, and the inventory plugin refuses the same data naming them. The project's inventory source fails
# on them before any play, so the check playbook runs with an inventory of its own (docs/constraints.md).
guarded=$work/guarded
cp -R "$project" "$guarded"
python - "$root/tests/unit/plugins" "$guarded" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[1])
from readme_project import GUARDED_FILES, README_FILES
for name, text in GUARDED_FILES.items():
    assert text.startswith(README_FILES[name]), name
    with open(os.path.join(sys.argv[2], name), 'a') as stream:
        stream.write(text[len(README_FILES[name]):])
PY
in_guarded() {
    (cd "$guarded" && env "${clean_env[@]}" ANSIBLE_NOCOLOR=true "$@")
}
rc=0
in_guarded ansible-inventory --list > "$work/guarded-inventory.txt" 2>&1 || rc=$?
cat "$work/guarded-inventory.txt"
[[ $rc -ne 0 ]] || { echo "ansible-inventory accepted data that breaks error-severity constraints"; exit 1; }
# the README's data files start with a comment naming the file: their lines are one further down than in the unit test
for said in "5 constraint violations" \
    "'final' violated for ntp/makestep on db01: data/roles/db.yml:4 sets \"0.1 -1\" over \"1.0 3\" fixed at data/common.yml:5 (hier.yml:12)" \
    "'protect_items' violated for packages on db01: data/nodes/db01.yml:4 knocks out \"chrony\", set at data/common.yml:2 (hier.yml:13)" \
    "'vault' violated for db_password on db01: data/roles/db.yml:5 sets it in plain text; it must be a vault value (hier.yml:17)" \
    "'tighten' violated for session_timeout on web01: data/roles/web.yml:3 sets 1800, above 900 at data/common.yml:6; it may only decrease (hier.yml:14)" \
    "'owners' violated for ntp/servers on web01: data/roles/web.yml:5 (level 'roles/%{Role}') sets [\"time.example.com\"]; only common may set it (hier.yml:18)"; do
    tr -d ' \n' < "$work/guarded-inventory.txt" | grep -qF "$(printf '%s' "$said" | tr -d ' ')" ||
        { echo "ansible-inventory does not say: $said"; exit 1; }
done
rc=0
in_guarded ansible-playbook -i localhost, strata.hier.check > "$work/check.txt" 2>&1 || rc=$?
cat "$work/check.txt"
[[ $rc -eq 2 ]] || { echo "strata.hier.check exited $rc, not 2 (a failed task)"; exit 1; }
grep -qF 'strata.hier.check: 5 error findings (see check/check.txt)' "$work/check.txt"
grep -qF 'strata.hier check: 5 findings (5 errors, 0 warnings) on 2 hosts checked, 0 nodes not checked: failed' "$work/check.txt"
# the README shows check.txt as the check prints it
python - "$root/README.md" "$guarded/check/check.txt" <<'PY'
import sys
readme, printed = open(sys.argv[1]).read(), open(sys.argv[2]).read().splitlines()
block = readme[readme.index('ansible-playbook -i localhost, strata.hier.check'):]
shown = [line[2:] for line in block[:block.index('```')].splitlines()[1:]]
assert shown == printed, (shown, printed)
PY
python - "$guarded/check/check.json" "$guarded/check/check.sarif" <<'PY'
import json, sys
report, log = (json.load(open(path)) for path in sys.argv[1:3])
expected = [('db01', 'db_password', 'vault', 'data/roles/db.yml', 5, None, 17),
            ('db01', 'ntp/makestep', 'final', 'data/roles/db.yml', 4, 'data/common.yml:5', 12),
            ('db01', 'packages', 'protect_items', 'data/nodes/db01.yml', 4, 'data/common.yml:2', 13),
            ('web01', 'ntp/servers', 'owners', 'data/roles/web.yml', 5, None, 18),
            ('web01', 'session_timeout', 'tighten', 'data/roles/web.yml', 3, 'data/common.yml:6', 14)]
assert [(finding['host'], finding['path'], finding['rule'], finding['file'], finding['line'],
         finding['protected'] and '%(file)s:%(line)d' % finding['protected'], finding['declared']['line'])
        for finding in report['findings']] == expected, report['findings']
assert report['summary'] == {'hosts_checked': 2, 'findings': 5, 'errors': 5, 'warnings': 0, 'problems': 0}
assert log['version'] == '2.1.0'
run, = log['runs']
rules = [rule['id'] for rule in run['tool']['driver']['rules']]
assert [(result['ruleId'], result['level'], result['locations'][0]['physicalLocation']['artifactLocation']['uri'],
         result['locations'][0]['physicalLocation']['region']['startLine']) for result in run['results']] == [
    (rule, 'error', file, line) for _host, _path, rule, file, line, _protected, _declared in expected]
assert all(result['ruleId'] in rules for result in run['results'])
PY
if grep -q '\[WARNING\]' "$work/check.txt"; then echo "strata.hier.check warned"; exit 1; fi

# --- what a change does to every host (issue 29): the collection playbook in the project's git work tree, the
# README's data committed, then makestep changed in common.yml and an item added to the web role
git_as_user() { as_user git -c user.email=ci@example.invalid -c user.name=ci "$@"; }
git_as_user init -q
git_as_user add hier.yml nodes.hier.yml data
git_as_user commit -qm "the README's first project"
sed -i.orig 's/"1.0 3"/"2.0 5"/' "$project/data/common.yml" && rm "$project/data/common.yml.orig"
printf 'packages: [nginx, curl]\n' > "$project/data/roles/web.yml"
as_user ansible-playbook strata.hier.rsop_diff -e base=HEAD -e out=diff > "$work/diff.txt" 2>&1 || { cat "$work/diff.txt"; exit 1; }
cat "$work/diff.txt" "$project/diff/rsop-diff.md"
python - "$project/diff/rsop-diff.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
assert report['summary'] == {'hosts_total': 2, 'hosts_changed': 1, 'values_changed': 2, 'errors': 0,
                             'shadowed_edits': 1, 'dead_edits': 0, 'hosts_recomputed': 2}, report['summary']
group, = report['groups']
assert group['hosts'] == ['web01']
# the README's data files start with a comment naming the file: its data lines are one further down than in docs
assert [(change['path'], change['op'], change['from'], change['to'], change['cause'][0]) for change in group['changes']] == [
    ('packages/1', 'added', None, 'curl', {'file': 'data/roles/web.yml', 'line': 1, 'ref': 'work tree'}),
    ('ntp/makestep', 'changed', '1.0 3', '2.0 5', {'file': 'data/common.yml', 'line': 5, 'ref': 'work tree'})]
assert report['shadowed_edits'] == [{'file': 'data/common.yml', 'line': 5, 'ref': 'work tree', 'path': 'ntp/makestep',
                                     'no_effect_on': {'db01': 'data/roles/db.yml:4'}}]
PY
grep -qF '**1 of 2 hosts change** (2 values)' "$project/diff/rsop-diff.md"
if grep -q '\[WARNING\]' "$work/diff.txt"; then echo "rsop_diff warned"; exit 1; fi
