# Sourced by scripts/test, after scripts/debian-deps.sh: python-chess, the
# reference PGN reader tests/rules/pgn_corpus.rs compares tactus with, at a pinned
# version, installed from PyPI by pip into target/python-chess (never into
# the system's Python). Debian 12 has no python3-chess; pip is Debian's
# python3-pip. The test finds it through TACTUS_PYTHON_CHESS.
PYTHON_CHESS_VERSION=1.11.2
need_debs "${TEST_DEBS[@]}"
export TACTUS_PYTHON_CHESS="$PWD/target/python-chess"
if ! PYTHONPATH="$TACTUS_PYTHON_CHESS" python3 -c \
    "import sys, chess.pgn; sys.exit(chess.__version__ != '$PYTHON_CHESS_VERSION')" 2>/dev/null; then
    echo "installing python-chess $PYTHON_CHESS_VERSION into target/python-chess" >&2
    rm -rf "$TACTUS_PYTHON_CHESS"
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
        --no-deps --target "$TACTUS_PYTHON_CHESS" "chess==$PYTHON_CHESS_VERSION"
fi
