#!/bin/sh
# Installs or uninstalls welkin; `make install`, `make install-built` and `make uninstall` run it.
#
#   Scripts/install.sh install BINARY   BINARY (the release build) → $DESTDIR$PREFIX/bin/welkin, with
#                                       the shaders (Shaders/) in share/welkin/Shaders, the night sky's
#                                       data in share/welkin, the sources --package exports copy (WelkinAtmosphere,
#                                       WelkinAstronomy, WelkinSkyModel, CERFA; WelkinResources/Inflate.swift) in share/welkin/Swift, bash/zsh/fish completions and welkin.1,
#                                       the last four written by BINARY itself (`welkin help --completions
#                                       SHELL`, `welkin help --man`)
#   Scripts/install.sh uninstall        removes exactly the files the install listed in
#                                       share/welkin/installed-files
#
# PREFIX defaults to /usr/local; DESTDIR (default empty) is prepended to every path written, for
# staging a package. An installed PREFIX/bin/welkin finds ../share/welkin (Sources/WelkinResources).
set -eu

PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TOP="$DESTDIR$PREFIX"
MANIFEST=share/welkin/installed-files

say() { echo "$(basename "$0"): $*"; }
fail() { echo "$(basename "$0"): $*" >&2; exit 1; }

# Removes the files a manifest lists (paths relative to PREFIX), then the manifest and welkin's own
# folders once empty; folders other programs share (bin, share/man/man1, …) stay.
remove_listed() {
  while IFS= read -r path; do
    [ -n "$path" ] && rm -f "$TOP/$path"
  done < "$TOP/$MANIFEST"
  rm -f "$TOP/$MANIFEST"
  [ -d "$TOP/share/welkin" ] && find "$TOP/share/welkin" -depth -type d -empty -delete 2>/dev/null || true
}

case "${1:-}" in
install)
  BINARY=${2:-}
  [ -n "$BINARY" ] || fail "usage: install.sh install BINARY"
  [ -x "$BINARY" ] || fail "no welkin binary at $BINARY (build it first: make build)"
  # An earlier install's files go first, so an upgrade leaves no shader that no longer exists.
  if [ -f "$TOP/$MANIFEST" ]; then remove_listed; fi
  listed=$(mktemp)
  trap 'rm -f "$listed"' EXIT
  # put MODE SOURCE DEST: one file, recorded in the manifest (DEST relative to PREFIX).
  put() {
    install -D -m "$1" "$2" "$TOP/$3"
    echo "$3" >> "$listed"
  }
  # generate DEST ARGS...: BINARY's output, one file, recorded likewise.
  generate() {
    dest=$1; shift
    mkdir -p "$(dirname "$TOP/$dest")"
    "$BINARY" "$@" > "$TOP/$dest" || fail "'$BINARY $*' failed"
    chmod 644 "$TOP/$dest"
    echo "$dest" >> "$listed"
  }
  put 755 "$BINARY" bin/welkin
  for f in "$ROOT"/Shaders/*; do
    [ -f "$f" ] && put 644 "$f" "share/welkin/Shaders/$(basename "$f")"
  done
  for f in "$ROOT"/Sources/WelkinAstronomy/Data/*.bin; do
    put 644 "$f" "share/welkin/$(basename "$f")"
  done
  # The modules `export-code --package` copies into packages as they are (the sky's model, its
  # ephemeris and ERFA's C files).
  for module in WelkinAtmosphere WelkinAstronomy WelkinSkyModel CERFA; do
    (cd "$ROOT/Sources/$module" && find . -type f \( -name '*.swift' -o -name '*.c' -o -name '*.h' -o -name '*.modulemap' -o -name LICENSE -o -name README.md \) \
       ! -path './Data/*' | sort) | while read -r f; do
      put 644 "$ROOT/Sources/$module/${f#./}" "share/welkin/Swift/$module/${f#./}"
    done
  done
  # And the decoder a package's data files are inflated with.
  put 644 "$ROOT/Sources/WelkinResources/Inflate.swift" share/welkin/Swift/WelkinResources/Inflate.swift
  generate share/bash-completion/completions/welkin help --completions bash
  generate share/zsh/site-functions/_welkin help --completions zsh
  generate share/fish/vendor_completions.d/welkin.fish help --completions fish
  generate share/man/man1/welkin.1 help --man
  install -D -m 644 "$listed" "$TOP/$MANIFEST"
  say "installed $(wc -l < "$listed") files under $TOP (listed in $TOP/$MANIFEST)"
  ;;
uninstall)
  [ -f "$TOP/$MANIFEST" ] || fail "welkin is not installed under $TOP: no $TOP/$MANIFEST"
  count=$(grep -c . "$TOP/$MANIFEST" || true)
  remove_listed
  say "removed $count files from $TOP"
  ;;
*)
  fail "usage: install.sh install BINARY | uninstall (PREFIX and DESTDIR from the environment)"
  ;;
esac
