# Shared by conformance/*/setup.sh (sourced, not run): install pinned PyPI wheels into a
# git-ignored virtualenv and set SITE to its site-packages directory.
#
#   pinned_venv TAG VENV PIN...
#
# TAG prefixes the progress lines (stderr). Idempotent: when every pin is installed at exactly its
# version, nothing is installed. Fails loudly (message on stderr, non-zero status under `set -e`)
# when the wheels cannot be installed: no oracle check may be skipped silently.
# Wheels go in with --no-deps: the C++ headers and the CUDA binaries need none of their Python
# dependencies.
pinned_venv() {
  local tag="$1" venv="$2"
  shift 2
  local python="${PYTHON:-python3}"
  local pip=("$venv/bin/python" -m pip)
  if [ ! -x "$venv/bin/python" ]; then
    echo "$tag: creating virtualenv $venv" >&2
    mkdir -p "$(dirname "$venv")"
    if ! "$python" -m venv "$venv" >&2; then
      # Debian's python3 without the python3-venv package cannot put pip into a venv.
      echo "$tag: venv with pip failed; retrying --without-pip and the system pip" >&2
      rm -rf "$venv"
      "$python" -m venv --without-pip "$venv" >&2
    fi
  fi
  if [ ! -x "$venv/bin/pip" ]; then
    pip=("$python" -m pip --python "$venv/bin/python")
  fi

  # Are all pins present at exactly the pinned version? (one interpreter start, no pip)
  if "$venv/bin/python" - "$@" <<'PY'
import sys
from importlib import metadata
for pin in sys.argv[1:]:
    name, want = pin.split("==")
    try:
        got = metadata.version(name)
    except metadata.PackageNotFoundError:
        sys.exit(1)
    if got != want:
        sys.exit(1)
PY
  then
    echo "$tag: pinned wheels already installed in $venv" >&2
  else
    echo "$tag: installing $*" >&2
    if ! "${pip[@]}" install --quiet --disable-pip-version-check --no-deps "$@" >&2; then
      echo "$tag: ERROR: could not install $* from PyPI" >&2
      return 1
    fi
  fi
  SITE="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
}
