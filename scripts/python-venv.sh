# Sourced by the Python scripts: `python_venv [PACKAGE…]` makes a fresh virtual
# environment with the package of python/ (and the packages named) installed, removed
# when the script exits, and sets $PYTHON to its interpreter. Needs python3 with venv
# and pip, and the network for maturin and the packages.
python_venv() {
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    python3 -m venv "$work/venv"
    "$work/venv/bin/python" -m pip install --quiet --upgrade pip
    "$work/venv/bin/python" -m pip install --quiet ./python "$@"
    PYTHON="$work/venv/bin/python"
}
