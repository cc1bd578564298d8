#!/usr/bin/env bash
# Copyright 2026 urdf_link_tools contributors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
# Rebuild urdf_link_tools/reports/html_assets/three.bundle.min.js, the three.js of the HTML
# report: three (npm registry) and its OrbitControls bundled by esbuild into one minified script
# that defines the global THREE, and three's LICENSE beside it. Needs node and npm; installs
# nothing outside a temporary folder. Bump the versions here, run it, commit the two files.
set -euo pipefail

THREE_VERSION=0.187.0
ESBUILD_VERSION=0.28.2
assets="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/urdf_link_tools/reports/html_assets"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm init -y > /dev/null
npm install --no-audit --no-fund --silent "three@$THREE_VERSION" "esbuild@$ESBUILD_VERSION"
cat > entry.js << 'JS'
export * from 'three';
export { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
JS
npx esbuild entry.js --bundle --minify --format=iife --global-name=THREE --target=es2020 \
  --outfile="$assets/three.bundle.min.js"
cp node_modules/three/LICENSE "$assets/three.LICENSE.txt"
echo "three $THREE_VERSION bundled into $assets/three.bundle.min.js"
