# shellcheck shell=bash
# Shared helpers for the bash scripts in scripts/ (test, demo, bench).  Source it; do not run it.
#
#   ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
#   . "$ROOT/scripts/_lib.sh"
#
# Everything here relies only on bash, coreutils, tar, git and a Python
# interpreter of the wanted version (found under pyenv's versions folder, on
# PATH, or named by STRATA_PYTHON_<X>_<Y>, e.g. STRATA_PYTHON_3_12=/opt/py/bin/python3.12).

# The collection root (this file lives in <root>/scripts/).
STRATA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# ---------------------------------------------------------------- messages

say() { printf '%s\n' "$*"; }
warn() { printf 'WARNING: %s\n' "$*" >&2; }
die() {
    printf 'ERROR: %s\n' "$*" >&2
    exit 1
}

# Seconds -> "1m05s" / "42s".
fmt_secs() {
    local s=$1
    if ((s >= 60)); then printf '%dm%02ds' $((s / 60)) $((s % 60)); else printf '%ds' "$s"; fi
}

# Print the last N (default 60) lines of a log, without pip's noise about the
# local file:// indexes this machine's pip.conf lists.
log_tail() {
    local file=$1 n=${2:-60}
    [[ -f $file ]] || return 0
    grep -v -e "^WARNING: Location 'file://.*' is ignored" -e '━━━' "$file" | tail -n "$n" || true
}

# descendant_pids PID -> every live descendant of PID, parents before
# children (read from /proc: the image has neither ps nor pgrep).
descendant_pids() {
    local f line pid ppid
    local -A kids=()
    for f in /proc/[0-9]*/stat; do
        { read -r line <"$f"; } 2>/dev/null || continue
        pid=${f#/proc/}
        pid=${pid%/stat}
        line=${line##*) } # drop "pid (comm) ": comm may contain spaces
        read -r _ ppid _ <<<"$line"
        kids[$ppid]+=" $pid"
    done
    local -a queue=("$1")
    while ((${#queue[@]})); do
        pid=${queue[0]}
        queue=("${queue[@]:1}")
        for f in ${kids[$pid]:-}; do
            printf '%s\n' "$f"
            queue+=("$f")
        done
    done
}

# ---------------------------------------------------------------- python

# PATH without pyenv shims: ansible-test looks up pythonX.Y on PATH and a shim
# is not a real interpreter (venv creation from it fails).
path_without_shims() {
    local out='' dir
    local IFS=:
    for dir in $PATH; do
        [[ -z $dir || $dir == */.pyenv/shims || $dir == */pyenv/shims ]] && continue
        out+="${out:+:}$dir"
    done
    printf '%s\n' "$out"
}

# real_python_bin X.Y -> prints the bin folder of a real (non-shim, non-venv)
# Python X.Y installation that contains pythonX.Y.
real_python_bin() {
    local want=$1 var cand bin base
    local -a cands=()
    var="STRATA_PYTHON_${want//./_}"
    [[ -n ${!var:-} ]] && cands+=("${!var}")
    local pyenv_root=${PYENV_ROOT:-$HOME/.pyenv}
    if [[ -d $pyenv_root/versions ]]; then
        # newest patch release first
        while IFS= read -r cand; do
            cands+=("$cand")
        done < <(find "$pyenv_root/versions" -maxdepth 3 -path "*/versions/$want.*/bin/python$want" 2>/dev/null | sort -rV)
    fi
    # anything on PATH (a shim is fine here: we ask the interpreter itself where it lives)
    cand=$(command -v "python$want" 2>/dev/null || true)
    [[ -n $cand ]] && cands+=("$cand")
    for cand in /usr/local/bin/python"$want" /usr/bin/python"$want"; do
        [[ -x $cand ]] && cands+=("$cand")
    done
    for cand in "${cands[@]}"; do
        [[ -x $cand ]] || continue
        base=$("$cand" -c 'import sys; print(sys.base_prefix if sys.version_info[:2] == tuple(map(int, sys.argv[1].split("."))) else "")' "$want" 2>/dev/null) || continue
        [[ -n $base ]] || continue
        bin=$base/bin
        if [[ -x $bin/python$want ]]; then
            printf '%s\n' "$bin"
            return 0
        fi
    done
    return 1
}

# venv_satisfied VENV X.Y REQ... -> 0 if VENV's python is X.Y and every REQ
# ("name" or "name==version") is installed in it.
venv_satisfied() {
    local venv=$1 want=$2
    shift 2
    [[ -x $venv/bin/python ]] && venv_in_place "$venv" || return 1
    "$venv/bin/python" - "$want" "$@" <<'PY' >/dev/null 2>&1
import sys
from importlib import metadata

want, reqs = sys.argv[1], sys.argv[2:]
if "%d.%d" % sys.version_info[:2] != want:
    sys.exit(1)
for req in reqs:
    name, _, version = req.partition("==")
    try:
        have = metadata.version(name.strip())
    except metadata.PackageNotFoundError:
        sys.exit(1)
    if version and have != version.strip():
        sys.exit(1)
PY
}

# venv_in_place VENV -> true unless VENV was made at another path (a moved checkout, a removed
# worktree): its console scripts (pip, ansible-playbook) would start an interpreter that is gone.
venv_in_place() {
    local venv=$1 shebang
    [[ -f $venv/bin/pip ]] || return 0
    IFS= read -r shebang <"$venv/bin/pip" || return 1
    shebang=${shebang#\#!}
    [[ ${shebang%/python*} -ef $venv/bin ]]
}

# ensure_venv VENV X.Y REQ... -> create VENV with a real Python X.Y and pip
# install the requirements, unless they are already satisfied (fast reruns).
ensure_venv() {
    local venv=$1 want=$2
    shift 2
    if venv_satisfied "$venv" "$want" "$@"; then
        say "venv $venv: up to date ($*)"
        return 0
    fi
    local bin
    bin=$(real_python_bin "$want") || die "no Python $want interpreter found (install it, or set STRATA_PYTHON_${want//./_}=/path/to/python$want)"
    if [[ -d $venv ]] && { ! venv_in_place "$venv" ||
        ! "$venv/bin/python" -c "import sys; assert '%d.%d' % sys.version_info[:2] == '$want'" >/dev/null 2>&1; }; then
        say "venv $venv: broken, made at another path or wrong Python version, recreating"
        rm -rf "$venv"
    fi
    if [[ ! -x $venv/bin/python ]]; then
        say "venv $venv: creating with $bin/python$want"
        "$bin/python$want" -m venv "$venv" || die "could not create $venv"
    fi
    say "venv $venv: pip install $*"
    "$venv/bin/python" -m pip install --disable-pip-version-check --quiet "$@" ||
        die "pip install into $venv failed"
    venv_satisfied "$venv" "$want" "$@" || die "venv $venv still does not satisfy: $*"
}

# ---------------------------------------------------------------- tools venv

# .venvs/tools: what builds the docs site (scripts/docs) and checks the execution
# environment metadata (scripts/check_ee.py), all from PyPI, pinned. ansible-core
# provides ansible-doc and ansible-galaxy for them.
STRATA_TOOLS_VENV=$STRATA_ROOT/.venvs/tools
STRATA_TOOLS_REQS=(
    ansible-core==2.19.14 antsibull-docs==2.28.0 sphinx==9.0.4 sphinx-ansible-theme==0.10.4
    ansible-pygments==0.1.2 myst-parser==5.2.0 ansible-builder==3.2.0
)
ensure_tools_venv() { ensure_venv "$STRATA_TOOLS_VENV" 3.11 "${STRATA_TOOLS_REQS[@]}"; }

# ---------------------------------------------------------------- collection copy

# copy_collection DEST -> fresh copy of the collection's files (tracked, plus
# untracked files that are not ignored; never .venvs/ or .build/) into DEST.
copy_collection() {
    local dest=$1
    git -C "$STRATA_ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
        die "$STRATA_ROOT is not a git work tree (the file list comes from git ls-files)"
    rm -rf "$dest" || die "cannot remove $dest"
    mkdir -p "$dest" || die "cannot create $dest"
    local f
    git -C "$STRATA_ROOT" ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' f; do
            case $f in .venvs/* | .build/* | tests/output/*) continue ;; esac
            # tracked but deleted in the work tree: skip
            [[ -e $STRATA_ROOT/$f || -L $STRATA_ROOT/$f ]] || continue
            printf '%s\0' "$f"
        done |
        tar -C "$STRATA_ROOT" --null --no-recursion -T - -cf - |
        tar -C "$dest" -xf - || die "copying the collection to $dest failed"
}

# make_git_root DIR -> turn a collection copy into its own git repository.
# ansible-test picks its file list from the nearest .git walking up from the
# collection root; without this, a copy under .build/ would be seen through the
# main repository's .git, where .build/ is ignored, so it would find no files.
make_git_root() {
    local dir=$1
    git -C "$dir" init -q &&
        git -C "$dir" add --all --force &&
        return 0
    die "git init/add in $dir failed"
}

# ---------------------------------------------------------------- results

# junit_counts PYTHON FILE... -> prints "passed failed skipped" summed over the
# JUnit XML files (errors count as failed).  Missing files count as nothing.
junit_counts() {
    local py=$1
    shift
    "$py" - "$@" <<'PY'
import sys
import xml.etree.ElementTree as ET

passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        continue
    for case in root.iter("testcase"):
        tags = {child.tag for child in case}
        if tags & {"failure", "error"}:
            failed += 1
        elif "skipped" in tags:
            skipped += 1
        else:
            passed += 1
print(passed, failed, skipped)
PY
}
