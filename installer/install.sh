#!/usr/bin/env bash
# Install the built bundle for the current user: ~/.local/opt, a launcher on PATH and a desktop entry.
set -euo pipefail
cd "$(dirname "$0")/.."
src=dist/cluster-planner
[ -x "$src/cluster-planner" ] || { echo "build first: bash installer/build.sh" >&2; exit 2; }
prefix=${PREFIX:-$HOME/.local}
rm -rf "$prefix/opt/cluster-planner"
mkdir -p "$prefix/opt" "$prefix/bin" "$prefix/share/applications" "$prefix/share/icons/hicolor/256x256/apps"
cp -r "$src" "$prefix/opt/cluster-planner"
ln -sf "$prefix/opt/cluster-planner/cluster-planner" "$prefix/bin/cluster-planner"
cp installer/cluster-planner.desktop "$prefix/share/applications/"
cp resources/icons/cluster-planner.png "$prefix/share/icons/hicolor/256x256/apps/"
echo "installed: $prefix/bin/cluster-planner"
