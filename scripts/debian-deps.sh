# Sourced by scripts/run and scripts/test: installs missing Debian packages
# when running as root, otherwise names exactly what to install.

# need_debs PKG...: make sure every package is installed.
need_debs() {
    local missing=()
    for pkg in "$@"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$pkg")
        fi
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null; then
        echo "installing Debian packages: ${missing[*]}" >&2
        # Refresh the package lists only when apt cannot find a package. The
        # first try is silent: on a fresh machine its lists are stale and it
        # fails with "E: Unable to correct problems", which is not an error
        # of ours. The second try's errors are real and shown; debconf's note
        # that apt-utils is missing is not.
        if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1; then
            apt-get update -qq
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" \
                2> >(grep -v '^debconf: delaying package configuration' >&2) >/dev/null
        fi
    else
        echo "tactus needs these Debian packages: ${missing[*]}" >&2
        echo "install them with: sudo apt-get install ${missing[*]}" >&2
        exit 1
    fi
}

# Build dependencies of the crate: cpal (ALSA), the tts crate
# (speech-dispatcher bindings generated with libclang), liblouis and BrlAPI
# for braille (liblouis-data: the tables words are translated with).
BUILD_DEBS=(pkg-config libasound2-dev libspeechd-dev libclang1-14 libclang-common-14-dev liblouis-dev liblouis-data libbrlapi-dev)
# Run-time speech synthesis for what no clip covers (optional at run time).
RUN_DEBS=(speech-dispatcher speech-dispatcher-espeak-ng)
# Tests: python3 and pip, which installs python-chess (the reference PGN
# reader) for tests/rules/pgn_corpus.rs (scripts/python-chess.sh).
TEST_DEBS=(python3 python3-pip)

# A script that only installs and runs a built package (scripts/test-package
# --deb in an arm64 root) needs no toolchain.
if [ "${TACTUS_NO_TOOLCHAIN:-}" != 1 ] && ! command -v cargo >/dev/null; then
    echo "tactus needs a Rust toolchain (cargo, Rust 1.95 or newer): see https://rustup.rs" >&2
    exit 1
fi
