# Shared by scripts/run and scripts/test: package installation and the build. Sourced, not executed.

SANDBENCH_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# Debian 12 packages for building and running Sandbench (scripts/run). Each one that CMake looks for is named in
# the configure error when it is missing (cmake/RequirePackage.cmake).
SANDBENCH_PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config
  qt6-base-dev qt6-charts-dev libqt6opengl6-dev libqscintilla2-qt6-dev qt6-tools-dev qt6-tools-dev-tools
  qt6-l10n-tools qt6-qpa-plugins libgl-dev
  libseccomp-dev libsqlite3-dev nlohmann-json3-dev libyaml-cpp-dev libcli11-dev libfmt-dev nettle-dev libzstd-dev
  libre2-dev
  python3 bash util-linux
  tzdata # the time zones of CEL's timestamp functions (rule conditions), read at run time
  qt6-translations-l10n # Qt's own strings (dialog buttons, --help) in the user's language
)
# Only for the tests (scripts/test): GoogleTest (its CMake files name GMock's archive too), the desktop-file
# and AppStream validators, the man page checkers (mandoc's linter, and groff, which man-db renders with), the
# sqlite3 shell and git (the audit and promotion tests use them as a person would), useradd for the
# unprivileged test user, mount (a CLI test hides python3 behind a bind mount), a CJK font (the window tests
# in Simplified Chinese draw their screenshots with it).
SANDBENCH_TEST_PACKAGES=(libgtest-dev libgmock-dev desktop-file-utils appstream mandoc groff-base sqlite3 git passwd
  mount fonts-wqy-microhei
  munge slurmctld slurmd slurm-client # the Slurm backend's tests start a real single-node cluster (tests/slurm)
)
# Only for the CEL conformance suite and the MCP peers, npm packages (tests/cel/conformance, tests/agents/peers):
# Node.js and npm. Installed only where no npm is on PATH: a Node.js from elsewhere ships its own npm, which
# Debian's npm package conflicts with. The MCP peers run on Debian 12's Node.js 18 and newer.
SANDBENCH_NODE_PACKAGES=(nodejs npm)
# Only for the fuzz step of the tests (scripts/fuzz): clang-19, its libFuzzer and sanitizer runtimes, and
# llvm-19 for its llvm-symbolizer (without it a crash's stack is bare addresses; older ones are not used).
# Not clang-16: it cannot compile std::expected with Debian 12's libstdc++ (see fuzz/CMakeLists.txt).
SANDBENCH_FUZZ_PACKAGES=(clang-19 libclang-rt-19-dev llvm-19)

as_root() {
  if [[ $(id -u) -eq 0 ]]; then "$@"; else sudo "$@"; fi
}

# install_missing PKG...: installs (apt-get) only the packages that are not installed yet.
install_missing() {
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  if ((${#missing[@]})); then
    echo "==> installing ${missing[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# install_conformance_suite: node and npm if missing, then the pinned CEL conformance suite (npm ci) when its
# node_modules is not there yet. The suite's data is never committed; the tests read it from node_modules.
install_conformance_suite() {
  command -v npm >/dev/null || install_missing "${SANDBENCH_NODE_PACKAGES[@]}"
  local dir=$SANDBENCH_ROOT/tests/cel/conformance
  if [[ ! -f $dir/node_modules/@bufbuild/cel-spec/package.json ]]; then
    echo "==> installing the CEL conformance suite (npm ci in tests/cel/conformance)"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

# install_mcp_peers: node and npm if missing, then the pinned MCP peers of the agent tests (npm ci in
# tests/agents/peers: the official SDK and the reference servers) when their node_modules is missing or older than
# package-lock.json. Never committed; test_mcp_wrap.py copies them where the sandbox and the test user can read them.
install_mcp_peers() {
  command -v npm >/dev/null || install_missing "${SANDBENCH_NODE_PACKAGES[@]}"
  local dir=$SANDBENCH_ROOT/tests/agents/peers
  if [[ ! -f $dir/node_modules/.package-lock.json || $dir/package-lock.json -nt $dir/node_modules/.package-lock.json ]]; then
    echo "==> installing the MCP peers (npm ci in tests/agents/peers)"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

# build_preset PRESET [TARGET...]: configures once (Ninja re-runs CMake itself when a CMakeLists changes),
# then builds only what changed.
build_preset() {
  local preset=$1
  shift
  export SANDBENCH_CCACHE=${SANDBENCH_CCACHE-$(command -v ccache || true)}
  # Paths below the checkout are hashed relative to it (and the build dir is not hashed), so a fresh clone
  # elsewhere reuses what an earlier build compiled. Fixtures come from compile definitions, not __FILE__.
  export CCACHE_BASEDIR=${CCACHE_BASEDIR-$SANDBENCH_ROOT} CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR-1}
  cd "$SANDBENCH_ROOT"
  if [[ ! -f build/$preset/build.ninja ]]; then
    echo "==> configuring ($preset)"
    cmake --preset "$preset" >/dev/null
  fi
  echo "==> building ($preset)"
  if (($#)); then
    cmake --build "build/$preset" --parallel "$(nproc)" --target "$@"
  else
    cmake --build "build/$preset" --parallel "$(nproc)"
  fi
}
