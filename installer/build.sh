#!/usr/bin/env bash
# Build the one-folder desktop bundle into dist/cluster-planner and smoke-test it.
#   bash installer/build.sh [PYTHON]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${1:-python3}

"$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath dist --workpath build/pyinstaller installer/cluster-planner.spec

bundle=dist/cluster-planner
cp installer/cluster-planner.desktop resources/icons/cluster-planner.png "$bundle/"
exe="$bundle/cluster-planner"

echo "== smoke: --version";        "$exe" --version
tmp=$(mktemp -d)
echo "== smoke: new + check";      "$exe" new --template medium -o "$tmp/p.json" && "$exe" check "$tmp/p.json" >/dev/null
echo "== smoke: exports";          "$exe" export "$tmp/p.json" -o "$tmp/p.xlsx" && "$exe" export "$tmp/p.json" -o "$tmp/p.pdf"
echo "== smoke: GUI offscreen";    QT_QPA_PLATFORM=offscreen "$exe" --smoke
rm -rf "$tmp"
size_mb=$(du -sm "$bundle" | cut -f1)
echo "== bundle size: ${size_mb} MB (limit 300 MB)"
[ "$size_mb" -lt 300 ]
