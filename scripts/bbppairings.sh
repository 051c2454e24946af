# Sourced by scripts/test, after scripts/debian-deps.sh: bbpPairings, the
# FIDE-endorsed Dutch pairing engine (Apache-2.0), built from the source
# vendored in tests/vendor/bbpPairings (see its VENDORED.md) into
# target/bbpPairings, never from the network. The tests pair each round with
# it from the TRF file tactus writes (crates/testkit/src/bbp.rs); they find it
# through TACTUS_BBPPAIRINGS. Rebuilt only when the binary is missing or the
# vendored source (or the make command below) changed: target/bbpPairings/stamp
# holds the sha256 of both. About 20 s on the 2-core machine.
need_debs g++ make
BBPPAIRINGS_SRC="$PWD/tests/vendor/bbpPairings"
BBPPAIRINGS_DIR="$PWD/target/bbpPairings"
export TACTUS_BBPPAIRINGS="$BBPPAIRINGS_DIR/bbpPairings.exe"
# Upstream's release build (-O3 -flto, NDEBUG, stripped) with Debian's g++
# (COMP=gcc, the Makefile's default). `version` is the vendored commit's tag
# (VENDORED.md), given so that the Makefile does not run `git describe`, which
# here would describe tactus's repository; it ends up in the program's build
# info (`bbpPairings.exe -r`), as in upstream's release build.
BBPPAIRINGS_MAKE=(make -j2 COMP=gcc version=v6.0.0 bbpPairings.exe)
bbppairings_stamp=$(
    cd "$BBPPAIRINGS_SRC" &&
        { printf '%s\n' "${BBPPAIRINGS_MAKE[*]}"
          find . -type f ! -name VENDORED.md -print0 | LC_ALL=C sort -z | xargs -0 sha256sum; } |
        sha256sum | cut -d' ' -f1
)
if [ ! -x "$TACTUS_BBPPAIRINGS" ] ||
    [ "$(cat "$BBPPAIRINGS_DIR/stamp" 2>/dev/null)" != "$bbppairings_stamp" ]; then
    echo "building bbpPairings from tests/vendor/bbpPairings into target/bbpPairings (under a minute)" >&2
    rm -rf "$BBPPAIRINGS_DIR"
    mkdir -p "$BBPPAIRINGS_DIR"
    # Out of tree: make writes build/ and the binary beside its Makefile.
    cp -R "$BBPPAIRINGS_SRC" "$BBPPAIRINGS_DIR/src-build"
    if ! (cd "$BBPPAIRINGS_DIR/src-build" && "${BBPPAIRINGS_MAKE[@]}") \
        >"$BBPPAIRINGS_DIR/build.log" 2>&1; then
        tail -n 30 "$BBPPAIRINGS_DIR/build.log" >&2
        echo "building bbpPairings failed: see target/bbpPairings/build.log" >&2
        exit 1
    fi
    cp "$BBPPAIRINGS_DIR/src-build/bbpPairings.exe" "$TACTUS_BBPPAIRINGS"
    printf '%s\n' "$bbppairings_stamp" >"$BBPPAIRINGS_DIR/stamp"
fi
unset bbppairings_stamp
