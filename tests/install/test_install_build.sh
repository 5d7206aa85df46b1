#!/bin/sh
# test_install_build.sh SOURCE SCRATCH - the install line builds what a
# user runs, the test line the tests.
#
# Pins: README.md's first line configures the build with no option that
# turns the tests on, and its test line (third line) with
# -DCSMACD_TESTS=ON; the source configured as the first line does
# (`cmake -S . -B build`, the defaults) has the program, its man page and
# the dissector it embeds among its targets, and no test program, fuzz
# harness or benchmark (they are compiled by the test line only).
set -eu
src=$1
scratch=$2
rm -rf "$scratch"
mkdir -p "$scratch"
fail() { echo "FAIL: $*" >&2; exit 1; }

install_line=$(sed -n 1p "$src/README.md")
test_line=$(sed -n 3p "$src/README.md")
case $install_line in
    *"cmake -S . -B build && cmake --build build -j && sudo cmake --install build"*) ;;
    *) fail "README.md:1: not the install line's build: $install_line" ;;
esac
case $install_line in *CSMACD_TESTS*) fail "README.md:1: the install line sets CSMACD_TESTS" ;; esac
case $test_line in
    "cmake -S . -B build-test -DCSMACD_TESTS=ON "*) ;;
    *) fail "README.md:3: the test line does not turn the tests on: $test_line" ;;
esac

cmake -S "$src" -B "$scratch/build" >"$scratch/configure.log" 2>&1 ||
    { cat "$scratch/configure.log"; fail "configuring as the install line does"; }
cmake --build "$scratch/build" --target help >"$scratch/targets.txt"
for t in csmacd csmacd_man csmacd_dissector; do
    grep -q "^\.\.\. $t\$" "$scratch/targets.txt" || fail "the install build has no target $t"
done
extra=$(grep -E '^\.\.\. (test_|fuzz_|bench)' "$scratch/targets.txt" | head -n 5 || true)
[ -z "$extra" ] || fail "the install build compiles tests: $(echo $extra)"
echo "the install build: the program, its man page, no tests"
