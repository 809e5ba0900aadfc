# Sourced by the benchmark scripts: makes benches/.venv (git-ignored) hold icepool 2.2.2 on
# Python 3.12 ($PYTHON312, else pyenv's 3.12.1, else python3.12) and sets $venv to it.
venv=benches/.venv
icepool_version=2.2.2
if ! "$venv/bin/python" -c "import icepool, sys; sys.exit(icepool.__version__ != '$icepool_version')" 2>/dev/null; then
  python312="${PYTHON312:-$HOME/.pyenv/versions/3.12.1/bin/python}"
  [[ -x "$python312" ]] || python312="$(command -v python3.12)"
  echo "setting up $venv with icepool $icepool_version ($python312)" >&2
  "$python312" -m venv "$venv"
  "$venv/bin/pip" install --quiet "icepool==$icepool_version"
fi
