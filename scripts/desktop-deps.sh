#!/usr/bin/env bash
# The Debian 12 packages the desktop app needs to build (WebKitGTK 4.1 and
# friends), to test end to end (Xvfb, WebKitWebDriver), and to make the icon.
# About 1 min and 780 MB. Needs root (or sudo).
set -euo pipefail
pkgs=(libwebkit2gtk-4.1-dev build-essential file libxdo-dev libssl-dev libayatana-appindicator3-dev
  librsvg2-dev xvfb webkit2gtk-driver xauth imagemagick)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && { echo "desktop build dependencies: all installed"; exit 0; }
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
