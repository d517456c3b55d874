#!/usr/bin/env bash
# Installs NVRTC (CUDA 11.8, from Debian's non-free component) into a
# private folder, without touching the machine's package sources, and
# prints the path of libnvrtc.so. NVRTC compiles CUDA C to sm_90 cubins on
# a machine without a GPU, so the tests compile every generated kernel.
#
# The packages are pinned by file name and SHA-256. The folder is
# $GOKKOS_CI_CACHE/nvrtc-<version>, by default under the user's cache.
set -euo pipefail
version=11.8.89~11.8.0-5~deb12u1
# The Debian archive is the machine's own: GOKKOS_DEBIAN_MIRROR, or the
# first Debian archive (not the security one) in its apt sources.
mirror=${GOKKOS_DEBIAN_MIRROR:-$(
	{
		grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | sed 's/^URIs:[[:space:]]*//' | tr ' ' '\n'
		grep -hs '^deb[[:space:]]' /etc/apt/sources.list /etc/apt/sources.list.d/*.list |
			awk '{ for (i = 2; i <= NF; i++) if ($i !~ /^\[/) { print $i; break } }'
	} | grep -v security | grep -m1 '/debian/\?$' || true
)}
if [ -z "$mirror" ]; then
	echo "no Debian archive in the apt sources: set GOKKOS_DEBIAN_MIRROR to one (its URL ends in /debian)" >&2
	exit 1
fi
pool=${mirror%/}/pool/non-free/n/nvidia-cuda-toolkit
debs=(
	"libnvrtc11.2_${version}_amd64.deb 051b70a3d8737eae470b4158e234cf112c803f631b2c77ae60a24a1146309c22"
	"libnvrtc-builtins11.8_${version}_amd64.deb e446e112c304b86a35925bea6a3991a866a29736fac261adb218ec29efb49bb8"
)
root=${GOKKOS_CI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gokkos-ci}/nvrtc-${version//\~/-}
lib=$root/usr/lib/x86_64-linux-gnu/libnvrtc.so.11.2
if [ ! -f "$lib" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	for d in "${debs[@]}"; do
		set -- $d
		go run "$(dirname "$0")/fetch.go" "$pool/${1//\~/%7E}" "$2" "$tmp/$1" >&2
		if command -v dpkg-deb >/dev/null; then
			dpkg-deb -x "$tmp/$1" "$tmp/root"
		else
			(cd "$tmp" && ar x "$1" && mkdir -p root && tar -xf data.tar.* -C root && rm -f data.tar.* control.tar.* debian-binary)
		fi
	done
	mkdir -p "$(dirname "$root")"
	rm -rf "$root"
	mv "$tmp/root" "$root"
fi
echo "$lib"
