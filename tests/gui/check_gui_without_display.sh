#!/bin/sh
# sandbench-gui --help and --version must work with no display at all: no DISPLAY, no WAYLAND_DISPLAY, no
# QT_QPA_PLATFORM. Each must exit 0 and print its text (usage with --store; the version).
# Usage: check_gui_without_display.sh SANDBENCH_GUI VERSION
set -u
gui=$1
version=$2
status=0

check() { # check OPTION EXPECTED...
  option=$1
  shift
  out=$(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$gui" "$option" 2>&1)
  code=$?
  if [ "$code" -ne 0 ]; then
    echo "FAIL: sandbench-gui $option exited $code without a display:"
    echo "$out"
    status=1
    return
  fi
  for expected in "$@"; do
    case $out in
      *"$expected"*) ;;
      *) echo "FAIL: sandbench-gui $option printed no '$expected':"; echo "$out"; status=1 ;;
    esac
  done
  echo "ok: sandbench-gui $option"
}

check --help "Usage:" "--store <PATH>" "--version"
check --version "sandbench-gui $version"
exit $status
