#!/bin/sh
# Install the Debian packages Pageturn needs (tools/debian-packages.txt).
#   sh tools/deps.sh check [LIST]     install only if something is missing (quiet when all is there)
#   sh tools/deps.sh install [LIST]   apt-get install the whole list
# LIST is another package list (tools/bench-packages.txt: what `make bench`
# adds). Without root, print the exact command to run instead.
set -eu
here=$(dirname "$0")
pkgs=$(grep -v '^#' "${2:-$here/debian-packages.txt}" | tr '\n' ' ')

missing() {
	for p in $pkgs; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || printf '%s ' "$p"
	done
}

if ! command -v dpkg-query >/dev/null 2>&1; then
	echo "deps: not a Debian system; install the equivalents of: $pkgs" >&2
	[ "${1:-check}" = check ] && exit 0 || exit 1
fi

case "${1:-check}" in
check)
	need=$(missing)
	[ -z "$need" ] && exit 0
	echo "deps: missing Debian packages: $need"
	;;
install)
	need=$pkgs
	;;
*)
	echo "usage: sh tools/deps.sh check|install [LIST]" >&2
	exit 2
	;;
esac

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: run as root:  apt-get update && apt-get install -y $need" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends $need
