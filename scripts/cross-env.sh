# Sourced by scripts/package and scripts/test-arm64 (after
# scripts/debian-deps.sh): the environment of a cross build for another
# Debian architecture, arm64 so far (a Raspberry Pi 4 or 5). Installs what
# it needs as root, as need_debs does:
# - Rust's target (rustup target add);
# - Debian's cross compiler and binutils (gcc-aarch64-linux-gnu), which
#   links the program and compiles the C parts (SQLite, ring);
# - the -dev packages of the libraries tactus links, for arm64, through
#   multiarch (dpkg --add-architecture arm64): their headers for bindgen
#   (speech-dispatcher), their .pc files for pkg-config (ALSA, liblouis),
#   their .so for the linker, and their package information for
#   dpkg-shlibdeps;
# - qemu-user-static and binfmt, so that arm64 programs (the unit tests,
#   the built tactus, an arm64 Debian root) run here, emulated.

# cross_env ARCH: exports CROSS_RUST_TARGET, CROSS_GNU and cargo's and the C
# build's variables for ARCH.
cross_env() {
    local arch=$1
    case "$arch" in
    arm64) CROSS_RUST_TARGET=aarch64-unknown-linux-gnu; CROSS_GNU=aarch64-linux-gnu ;;
    *) echo "no cross build for $arch here (arm64 only)" >&2; exit 2 ;;
    esac
    export CROSS_RUST_TARGET CROSS_GNU
    if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
        if [ "$(id -u)" -ne 0 ]; then
            echo "a cross build needs the $arch architecture in dpkg: sudo dpkg --add-architecture $arch && sudo apt-get update" >&2
            exit 1
        fi
        dpkg --add-architecture "$arch"
        apt-get update -qq
    fi
    local dev=()
    # The libraries' -dev packages; clang's own (bindgen's parser) stays
    # the host's.
    for pkg in "${BUILD_DEBS[@]}"; do
        case "$pkg" in
        libclang*) ;;
        *-dev) dev+=("$pkg:$arch") ;;
        esac
    done
    need_debs "gcc-$CROSS_GNU" "binutils-$CROSS_GNU" "libc6-dev:$arch" "${dev[@]}" qemu-user-static binfmt-support
    if ! rustup target list --installed 2>/dev/null | grep -qx "$CROSS_RUST_TARGET"; then
        rustup target add "$CROSS_RUST_TARGET"
    fi
    local upper=${CROSS_RUST_TARGET//-/_}
    upper=${upper^^}
    export "CARGO_TARGET_${upper}_LINKER=$CROSS_GNU-gcc"
    # Tests and `cargo run` of the target's programs go through qemu-user
    # (binfmt would do too; the runner works where binfmt_misc is not
    # mounted). The arm64 libraries are multiarch, in the host's own /lib
    # and /usr/lib: qemu needs no other root.
    export "CARGO_TARGET_${upper}_RUNNER=qemu-aarch64-static"
    export "CC_${CROSS_RUST_TARGET//-/_}=$CROSS_GNU-gcc"
    export "AR_${CROSS_RUST_TARGET//-/_}=$CROSS_GNU-ar"
    # pkg-config answers for the target's libraries, not the host's.
    export PKG_CONFIG_ALLOW_CROSS=1
    export "PKG_CONFIG_PATH_${CROSS_RUST_TARGET//-/_}=/usr/lib/$CROSS_GNU/pkgconfig:/usr/share/pkgconfig"
    export "PKG_CONFIG_LIBDIR_${CROSS_RUST_TARGET//-/_}=/usr/lib/$CROSS_GNU/pkgconfig:/usr/share/pkgconfig"
    # bindgen's clang parses the target's headers (speech-dispatcher).
    export "BINDGEN_EXTRA_CLANG_ARGS_${CROSS_RUST_TARGET//-/_}=--target=$CROSS_GNU -I/usr/include/$CROSS_GNU"
    # dpkg-shlibdeps reads the arm64 binary with the cross objdump and
    # looks for the arm64 libraries' packages.
    export DEB_HOST_ARCH=$arch
}

# binfmt_on: arm64 programs run here as if native (the debootstrap root's
# shell and dpkg). Mounts binfmt_misc and enables qemu-aarch64 (as root).
binfmt_on() {
    if [ ! -e /proc/sys/fs/binfmt_misc/register ]; then
        mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    fi
    if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
        update-binfmts --enable qemu-aarch64
    fi
}
