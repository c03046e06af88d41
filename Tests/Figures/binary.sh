# Sourced by the side-by-side scripts: `binary <rev or binary>` prints a scorefeed binary to run,
# the path given when it is one, else a release build of the revision in a worktree of its own
# under "$work" (removed by the caller's trap). Needs $root (the checkout) and $work.
binary() {
  if [ -x "$1" ] && [ -f "$1" ]; then echo "$1"; return; fi
  local tree="$work/wt-$(git -C "$root" rev-parse --short "$1")"
  git -C "$root" worktree add -q --detach "$tree" "$1" >&2
  (cd "$tree" && swift build -c release --product scorefeed >&2)
  echo "$tree/.build/release/scorefeed"
}
