#!/usr/bin/env bash
# The one place that provisions what the test suites run as real components outside node_modules:
#   redis-server  (@toolwright/queue: real Redis processes; Debian packages redis-server and redis-tools)
#   Chromium      (@toolwright/cli: the inspector in a headless browser; the test runs $CHROMIUM_PATH, else
#                  /usr/bin/chromium, the Debian package chromium)
# `npm test` and `.ci/run` run it first. When something is missing it installs it with apt-get if it runs as root on
# Debian or Ubuntu; on any other machine it stops, before any test suite, with the exact command to run.
# Usage: scripts/setup-test-machine.sh [--dry-run]   (--dry-run: print the apt-get commands instead of running them)
set -euo pipefail

dry_run=0
for argument in "$@"; do
  case "$argument" in
    --dry-run) dry_run=1 ;;
    *)
      echo "setup: unknown argument $argument (usage: scripts/setup-test-machine.sh [--dry-run])" >&2
      exit 2
      ;;
  esac
done

say() { echo "setup: $*" >&2; }
chromium_path="${CHROMIUM_PATH:-/usr/bin/chromium}"
# Which distribution: ID and ID_LIKE of os-release (the variable lets the tests present another distribution).
os_release="${TOOLWRIGHT_OS_RELEASE:-/etc/os-release}"
os_id=""
os_like=""
if [ -r "$os_release" ]; then
  os_id=$(. "$os_release" && echo "${ID:-}")
  os_like=$(. "$os_release" && echo "${ID_LIKE:-}")
fi

has_redis() { command -v redis-server >/dev/null 2>&1; }
has_chromium() { [ -x "$chromium_path" ]; }
on_apt=0
case " $os_id $os_like " in
  *" debian "* | *" ubuntu "*) command -v apt-get >/dev/null 2>&1 && on_apt=1 ;;
esac
on_brew=0
[ "$on_apt" -eq 1 ] || ! command -v brew >/dev/null 2>&1 || on_brew=1

missing=()      # what the tests need and cannot find, in words
apt_packages=() # what apt-get provides here
manual=()       # the exact commands for what apt-get does not provide here
if ! has_redis; then
  missing+=("redis-server (not on PATH)")
  if [ "$on_apt" -eq 1 ]; then
    apt_packages+=(redis-server redis-tools)
  elif [ "$on_brew" -eq 1 ]; then
    manual+=("brew install redis")
  else
    manual+=("install Redis 6.2 or newer (the redis-server binary) with your system's package manager")
  fi
fi
if ! has_chromium; then
  missing+=("Chromium (no executable at $chromium_path)")
  if [ -n "${CHROMIUM_PATH:-}" ]; then
    manual+=("CHROMIUM_PATH=$CHROMIUM_PATH is not an executable: correct it, or unset it to use /usr/bin/chromium")
  elif [ "$on_apt" -eq 1 ] && [[ " $os_id $os_like " != *" ubuntu "* ]]; then
    apt_packages+=(chromium)
  elif [ "$on_apt" -eq 1 ]; then
    # Ubuntu ships Chromium only as a snap (its apt package chromium-browser installs the snap).
    manual+=("sudo snap install chromium && export CHROMIUM_PATH=/snap/bin/chromium")
  elif [ "$on_brew" -eq 1 ]; then
    manual+=("brew install --cask chromium && export CHROMIUM_PATH=/Applications/Chromium.app/Contents/MacOS/Chromium")
  else
    manual+=("install Chromium or Chrome, then: export CHROMIUM_PATH=<its executable>")
  fi
fi

if [ "${#missing[@]}" -eq 0 ]; then
  say "redis-server ($(command -v redis-server)) and Chromium ($chromium_path) found"
  exit 0
fi
say "missing: ${missing[*]}"

if [ "${#apt_packages[@]}" -gt 0 ]; then
  install="apt-get install -y --no-install-recommends ${apt_packages[*]}"
  if [ "$(id -u)" -ne 0 ]; then
    manual=("sudo apt-get update && sudo $install" "${manual[@]}")
  elif [ "$dry_run" -eq 1 ]; then
    say "dry run, would run: apt-get update && $install"
  else
    say "installing with apt-get: ${apt_packages[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq --no-install-recommends "${apt_packages[@]}" >/dev/null
    if [[ " ${apt_packages[*]} " == *" redis-server "* ]] && ! has_redis; then
      say "apt-get installed redis-server, but redis-server is still not on PATH ($PATH)"
      exit 1
    fi
    if [[ " ${apt_packages[*]} " == *" chromium "* ]] && ! has_chromium; then
      say "apt-get installed chromium, but $chromium_path is still not an executable"
      exit 1
    fi
  fi
fi

if [ "${#manual[@]}" -gt 0 ]; then
  say "the test suites run these as real components; this script installs them with apt-get as root on Debian (Redis also on Ubuntu), and the rest is yours to run:"
  for command in "${manual[@]}"; do echo "  $command" >&2; done
  say "then npm test again."
  exit 1
fi
