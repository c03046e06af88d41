# Sourced by the scripts that build what they measure. Needs $root (the checkout) and $work.
#
# `release_build <checkout>` builds the checkout's `scorefeed` in release as it is deployed
# (Operating.md, "Building the binary to run"): the Swift runtime and Foundation linked into the
# binary (`--static-swift-stdlib`), which starts in about half the time and spends less on each
# call into the runtime. That link wants libcurl's development link (Debian's
# libcurl4-openssl-dev); where only the runtime library is installed, a link to it in a directory
# under "$work" stands in. SCOREFEED_DYNAMIC=1 builds the toolchain's default, linked to the
# runtime's shared libraries, instead. Prints the binary's path.
release_build() {
  local flags=()
  if [ "${SCOREFEED_DYNAMIC:-}" != 1 ]; then
    flags=(--static-swift-stdlib)
    if [ "$(cc -print-file-name=libcurl.so)" = libcurl.so ]; then
      local runtime
      runtime=$(cc -print-file-name=libcurl.so.4)
      [ "$runtime" != libcurl.so.4 ] || { echo "libcurl is not installed: apt-get install libcurl4-openssl-dev" >&2; return 1; }
      mkdir -p "$work/curl-link"
      ln -sf "$runtime" "$work/curl-link/libcurl.so"
      flags+=(-Xlinker -L"$work/curl-link")
    fi
  fi
  (cd "$1" && swift build -c release --product scorefeed ${flags[@]+"${flags[@]}"} >&2) || return
  echo "$1/.build/release/scorefeed"
}

# `binary <rev or binary>` prints a scorefeed binary to run: the path given when it is one, else
# a release build (release_build) of the revision in a worktree of its own under "$work"
# (removed by the caller's trap).
binary() {
  if [ -x "$1" ] && [ -f "$1" ]; then echo "$1"; return; fi
  local tree="$work/wt-$(git -C "$root" rev-parse --short "$1")"
  git -C "$root" worktree add -q --detach "$tree" "$1" >&2
  release_build "$tree"
}
