#!/usr/bin/env bash
# Builds the Python package (crates/fairdice-py) with maturin into the workspace's
# own target/ directory and runs its pytest suite: under Python 3.11 or newer
# (python3), then under Python 3.12 with icepool 2.2.2 for the differential test
# ($PYTHON312, else pyenv's 3.12, else python3.12 on PATH; without one that test
# is skipped, saying so). The virtual environments live in target/python/ and are
# reused; the first run installs maturin, pytest, mypy (the stubs' check) and
# icepool from PyPI.
#
#   scripts/test-python.sh             # build, then every test under both Pythons
#   scripts/test-python.sh -k errors   # extra arguments go to pytest
set -euo pipefail
cd "$(dirname "$0")/.."

root=$PWD
out=target/python
mkdir -p "$out"
started=$SECONDS
phase() { printf '== %s (%ds so far)\n' "$1" $((SECONDS - started)); }

python311=${PYTHON311:-python3}
if ! "$python311" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "error: $python311 is $("$python311" --version 2>&1); fairdice needs Python 3.11 or newer (set PYTHON311)" >&2
    exit 1
fi
python312=${PYTHON312:-}
if [[ -z $python312 ]]; then
    for candidate in "$HOME"/.pyenv/versions/3.12*/bin/python3.12 "$(command -v python3.12 || true)"; do
        if [[ -x $candidate ]]; then python312=$candidate; break; fi
    done
fi

# venv DIR PYTHON PACKAGES...: a virtual environment with these packages, made once.
venv() {
    local dir=$1 python=$2
    shift 2
    local want="$*"
    if [[ ! -x $dir/bin/python || $(cat "$dir/.packages" 2>/dev/null) != "$want" ]]; then
        echo "making $dir ($("$python" --version 2>&1)) with: $want"
        rm -rf "$dir"
        "$python" -m venv "$dir"
        "$dir/bin/python" -m pip install --quiet --disable-pip-version-check "$@"
        echo "$want" >"$dir/.packages"
    fi
}

phase "Python environments"
venv "$out/venv-3.11" "$python311" "maturin>=1.9.4,<2" "pytest>=8" "mypy"
if [[ -n $python312 ]]; then
    venv "$out/venv-3.12" "$python312" "pytest>=8" "icepool==2.2.2"
else
    echo "no Python 3.12 found (set PYTHON312): the icepool differential test will be skipped"
fi

# One wheel for every CPython >= 3.11 (the stable ABI), built in target/ beside the
# Rust build so the library is compiled there once.
phase "building the wheel"
rm -rf "$out/wheels"
profile="${FAIRDICE_PROFILE:-release}"
"$out/venv-3.11/bin/maturin" build --profile "$profile" --quiet \
    --manifest-path crates/fairdice-py/Cargo.toml --out "$out/wheels"
wheel=$(ls "$out"/wheels/fairdice-*.whl)

# The seed, error and report tests compare with the command line. scripts/test.sh
# passes the binary its `cargo test` has just built (a `cargo build` here would
# build it again: the test build's features differ by its dev-dependencies).
if [[ -z ${FAIRDICE_CLI:-} ]]; then
    phase "building the fairdice command"
    cargo build --profile "$profile" --quiet -p fairdice-cli
    export FAIRDICE_CLI=$root/target/$profile/fairdice
fi

status=0
for python in 3.11 3.12; do
    env=$out/venv-$python
    [[ -x $env/bin/python ]] || continue
    phase "pytest under $("$env/bin/python" --version)"
    "$env/bin/python" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps "$wheel"
    (cd crates/fairdice-py && "$root/$env/bin/python" -m pytest -q -p no:cacheprovider -rs "$@" tests) || status=$?
done
phase "done"
exit $status
