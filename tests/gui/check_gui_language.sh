#!/bin/sh
# sandbench-gui speaks the language of the system's locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG, as Qt reads
# them): its --help, which needs no display, shows the translated description.
# Usage: check_gui_language.sh SANDBENCH_GUI
set -u
gui=$1
status=0

check() { # check LOCALE EXPECTED
  out=$(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM -u LANGUAGE -u LC_MESSAGES LC_ALL="$1" LANG="$1" \
    "$gui" --help 2>&1)
  case $out in
    *"$2"*) echo "ok: LC_ALL=$1 sandbench-gui --help" ;;
    *) echo "FAIL: LC_ALL=$1 sandbench-gui --help printed no '$2':"; echo "$out"; status=1 ;;
  esac
}

check zh_CN.UTF-8 "在操作系统沙箱中运行您不信任的代码。"
check de_DE.UTF-8 "Nicht vertrauenswürdigen Code in einer Betriebssystem-Sandbox ausführen."
check C "Run code you do not trust in an OS sandbox."
exit $status
