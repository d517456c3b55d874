#!/usr/bin/env bash
# gobuild.sh OUTDIR
#
# Builds the Go tutorial programs (examples/tutorials/*, one binary per
# exercise, named after its directory as run.sh's CASES name them) into
# OUTDIR: static (CGO_ENABLED=0), -trimpath, stripped (-ldflags='-s -w'),
# for GOOS/GOARCH as set (default this machine's). OUTDIR/VERSION records
# the commit and the Go version. Copy OUTDIR to a machine without Go and
# run run.sh there with GOBIN_DIR=OUTDIR.
#
# Environment:
#   GOTAGS  build tags for the Go programs
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: $0 OUTDIR" >&2
  exit 2
fi
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
mkdir -p "$1"
OUTDIR=$(cd "$1" && pwd)
cd "$ROOT"
n=0
for d in examples/tutorials/*/; do
  d=${d%/}
  [ -f "$d/main.go" ] || continue
  name=${d##*/}
  CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' ${GOTAGS:+-tags "$GOTAGS"} -o "$OUTDIR/$name" "./$d"
  n=$((n + 1))
done
{
  echo "$(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet 2>/dev/null || echo ' (dirty)'); $(go version)${GOTAGS:+; tags $GOTAGS}"
} > "$OUTDIR/VERSION"
echo "gobuild.sh: $n programs in $OUTDIR ($(du -sh "$OUTDIR" | cut -f1))"
