#!/usr/bin/env bash
# scripts/release-dryrun.sh - a forgego release without publishing it.
#
# 1. go run ./internal/release proxy: every module's zip, .mod, .info and list
#    at the version the nested modules require of the root (v0.1.0 before the
#    first release), from the committed tree at $FORGEGO_RELEASE_REV (HEAD),
#    into a directory laid out as a GOPROXY.
# 2. Every module is tidy for its own requirements, outside the workspace
#    (GOWORK=off), resolving the unpublished root from that directory. The
#    lines of the repository's own modules in a nested go.sum (the root's,
#    and forgeredis's in cmd/forgego's) are left out of the comparison:
#    before a tag is published their hashes are not known, and after, the
#    committed lines are those of the published release, not of this tree
#    (CONTRIBUTING.md, "Releases", step 4).
# 3. go install codeberg.org/forgego/forgejo/cmd/forgego@VERSION into a temp
#    GOBIN, as a user would (GOWORK=off, no replace anywhere), and run it.
# 4. A throwaway module outside the repository requires every library module
#    at VERSION and builds a program importing each of their packages.
#
# The proxy and the module cache are fresh per run, in a temp dir: a module
# cache kept from an earlier run would serve that run's v0.1.0, and go's
# module index (in GOCACHE) takes a cached path@version as immutable. Modules
# other than ours come from the machine's module cache (read as a file://
# proxy), then from `go env GOPROXY`. The builds use -trimpath, so that the
# build cache (GOCACHE, in ~/.cache) does not key them by the temp dir and
# compiles the third-party modules once per machine. Checksums of everything
# but codeberg.org/forgego/* are verified by the checksum database as usual;
# ours are in no checksum database until published (GONOSUMDB).
#
# Usage: scripts/release-dryrun.sh        (from anywhere; needs git and go)
# Environment: FORGEGO_RELEASE_REV (default HEAD); FORGEGO_RELEASE_KEEP=1
# keeps the work dir and prints it.
set -euo pipefail
cd "$(dirname "$0")/.."
top="$PWD"

log() { printf '[release-dryrun %s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "FAIL: $*"; exit 1; }
t0=$(date +%s.%N)
elapsed() { awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1fs", b-a}'; }

work="$(mktemp -d "${TMPDIR:-/tmp}/forgego-release.XXXXXX")"
cleanup() {
  if [ "${FORGEGO_RELEASE_KEEP:-}" = 1 ]; then log "kept $work"; return; fi
  chmod -R u+w "$work" 2>/dev/null || true # the module cache is read-only
  rm -rf "$work"
}
trap cleanup EXIT

rev="${FORGEGO_RELEASE_REV:-HEAD}"
if [ "$rev" = HEAD ] && [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  log "note: uncommitted changes are not in the zips (they are built from $rev)"
fi
version="$(go run ./internal/release version)"
log "version $version, from $rev ($(git rev-parse --short "$rev"))"
go run ./internal/release proxy -o "$work/proxy" -rev "$rev" >&2

mainmc="$(go env GOMODCACHE)"
upstream="$(go env GOPROXY)"
export GOWORK=off
export GOPROXY="file://$work/proxy,file://$mainmc/cache/download,$upstream"
export GONOSUMDB=codeberg.org/forgego
export GOMODCACHE="$work/modcache"
export GOFLAGS="${GOFLAGS:--buildvcs=false}"

# The module paths the release tool zipped.
modules="$(cd "$work/proxy" && find . -name list | sed -e 's|^\./||' -e 's|/@v/list$||' | sort)"

log "every module is tidy outside the workspace (the go.sum lines of this repository's modules aside)"
for modpath in $modules; do
  dir="${modpath#codeberg.org/forgego/forgejo}"
  dir="${dir#/}"
  dir="${dir:-.}"
  tmp="$work/tidy/$dir"
  mkdir -p "$tmp"
  cp "$dir/go.mod" "$tmp/m.mod"
  if [ -f "$dir/go.sum" ]; then
    grep -Ev '^codeberg\.org/forgego/forgejo(/[^ ]+)? ' "$dir/go.sum" > "$tmp/m.sum" || true
  else
    : > "$tmp/m.sum"
  fi
  cp "$tmp/m.sum" "$tmp/before.sum"
  (cd "$dir" && go mod tidy -modfile="$tmp/m.mod") || die "$dir: go mod tidy failed (outside the workspace, against the dry-run proxy)"
  if ! diff -u "$dir/go.mod" "$tmp/m.mod"; then
    die "$dir/go.mod is not tidy: run (cd $dir && GOWORK=off go mod tidy) against this proxy, or fix the requirement"
  fi
  grep -Ev '^codeberg\.org/forgego/forgejo(/[^ ]+)? ' "$tmp/m.sum" > "$tmp/after.sum" || true
  if ! diff -u "$tmp/before.sum" "$tmp/after.sum"; then
    die "$dir/go.sum is not tidy for its own requirements (the diff above, the lines of this repository's modules aside)"
  fi
  echo "  $dir: tidy" >&2
done
(cd internal/release && go mod tidy -diff) || die "internal/release is not tidy"
echo "  internal/release: tidy" >&2

log "go install -trimpath codeberg.org/forgego/forgejo/cmd/forgego@$version"
export GOBIN="$work/bin"
(cd "$work" && go install -trimpath "codeberg.org/forgego/forgejo/cmd/forgego@$version") || die "go install failed"
out="$("$GOBIN/forgego" --version)" || die "the installed forgego --version failed"
echo "  $out" >&2
case "$out" in
  "forgego ${version#v} "*) ;;
  *) die "the installed binary says '$out', not version ${version#v}" ;;
esac
"$GOBIN/forgego" --help >/dev/null || die "the installed forgego --help failed"

log "a module outside the repository builds against every library module at $version"
mkdir -p "$work/consumer"
cd "$work/consumer"
cat > go.mod <<EOF
module example.com/forgego-consumer

go $(cd "$top" && go list -m -f '{{.GoVersion}}')
EOF
imports=""
gets=""
for modpath in $modules; do
  case "$modpath" in */cmd/*|*/bench) continue ;; esac
  gets="$gets $modpath@$version"
done
# Every non-internal, non-main package of those modules, from the zips.
go get $gets >/dev/null 2>&1 || go get $gets
for modpath in $modules; do
  case "$modpath" in */cmd/*|*/bench) continue ;; esac
  for p in $(go list -e -f '{{if and .GoFiles (ne .Name "main") (eq .Module.Path "'"$modpath"'")}}{{.ImportPath}}{{end}}' "$modpath/..."); do
    case "$p" in */internal|*/internal/*) continue ;; esac
    imports="$imports	_ \"$p\"
"
  done
done
printf 'package main\n\nimport (\n%s)\n\nfunc main() {}\n' "$imports" > main.go
cat main.go | sed 's/^/  /' >&2
go mod tidy >/dev/null 2>&1 || go mod tidy
go build -trimpath -o /dev/null . || die "the consumer does not build"
cd "$top"

log "ok: $(echo "$modules" | wc -w) modules at $version install and build from a GOPROXY ($(elapsed))"
