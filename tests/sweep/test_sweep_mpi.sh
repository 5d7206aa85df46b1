#!/usr/bin/env bash
# test_sweep_mpi.sh - `mpirun -n 2 csmacd-mpi sweep` writes the same CSV,
# byte for byte, as `csmacd sweep --jobs 1`, for fixed replications, for
# --precision and for a scenario with groups. Skipped (77) when mpirun is not installed or csmacd-mpi
# was not built (CMake found no MPI). Leak detection is off for the MPI
# runs: Open MPI keeps allocations to exit.
#
# usage: test_sweep_mpi.sh CSMACD CSMACD_MPI WORK_DIR
set -u
EXE=$1
MPI_EXE=$2
WORK=$3
command -v mpirun > /dev/null 2>&1 || { echo "mpirun not installed: skipped"; exit 77; }
[ -x "$MPI_EXE" ] || { echo "csmacd-mpi not built: skipped"; exit 77; }
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
export OMPI_MCA_plm_rsh_agent=   # no ssh: local ranks only
# Containers often forbid the cross-process memory copy Open MPI tries first.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
args1=(--stations 1,3,8 --frame-size 64,1518 --duration 8ms --reps 2 --seed 11)
args2=(--stations 2,16 --duration 4ms --precision 0.02 --max-reps 10)
"$EXE" sweep --quiet --jobs 1 "${args1[@]}" --csv one-a.csv || fail "csmacd sweep"
"$EXE" sweep --quiet --jobs 1 "${args2[@]}" --csv one-b.csv || fail "csmacd sweep --precision"
mpi() { mpirun --allow-run-as-root --oversubscribe -n 2 "$MPI_EXE" sweep --quiet --jobs 1 "$@"; }
mpi "${args1[@]}" --csv mpi-a.csv || fail "mpirun -n 2 csmacd-mpi sweep"
mpi "${args2[@]}" --csv mpi-b.csv || fail "mpirun -n 2 csmacd-mpi sweep --precision"
cmp one-a.csv mpi-a.csv || fail "2 MPI ranks and one process differ"
cmp one-b.csv mpi-b.csv || fail "2 MPI ranks and one process differ (--precision)"
# Groups: each point's replications carry its groups' measures too.
args3=(--preset weakest-link --stations 16 --duration 20ms --reps 2 --reps-csv)
"$EXE" sweep --quiet --jobs 1 "${args3[@]}" one-c-reps.csv --csv one-c.csv || fail "groups"
mpi "${args3[@]}" mpi-c-reps.csv --csv mpi-c.csv || fail "mpirun -n 2 csmacd-mpi sweep (groups)"
cmp one-c.csv mpi-c.csv || fail "2 MPI ranks and one process differ (groups)"
cmp one-c-reps.csv mpi-c-reps.csv || fail "2 MPI ranks and one process differ (groups, reps)"
# A usage error: exit 2, one message (from rank 0 only).
mpi --stations 0 --csv bad.csv 2> bad.err
rc=$?
[ $rc -ne 0 ] || fail "a bad command line under MPI succeeded"
[ "$(grep -c '^csmacd: ' bad.err)" -eq 1 ] || fail "expected one message: $(cat bad.err)"
# Every early exit is collective: a bad output path (only rank 0 checks and
# opens the outputs) ends both ranks with exit 1 and one message, within
# seconds, and the older files are left as they were. Before, rank 0 left
# while rank 1 waited in MPI_Bcast for ever.
printf 'old\n' > kept.csv
bad_exit() { # WHAT EXPECTED_RC MESSAGE ARGS...
    local what=$1 want=$2 msg=$3 rc
    shift 3
    timeout -k 5 60 mpirun --allow-run-as-root --oversubscribe -n 2 "$MPI_EXE" sweep --quiet \
        --jobs 1 --stations 2,4 --duration 1ms "$@" > out 2> err
    rc=$?
    [ $rc -ne 124 ] && [ $rc -ne 137 ] || fail "$what: hangs (killed after 60 s)"
    [ $rc -eq "$want" ] || fail "$what: exit $rc, expected $want: $(head -2 err)"
    [ "$(grep -c '^csmacd: ' err)" -eq 1 ] && grep -qxF "csmacd: $msg" err ||
        fail "$what: expected one message '$msg': $(head -3 err)"
    [ "$(cat kept.csv)" = old ] || fail "$what: kept.csv was changed"
}
bad_exit "--csv in a missing folder" 1 "/nonexistent/x.csv: No such file or directory" \
    --csv /nonexistent/x.csv
bad_exit "--plot in a missing folder" 1 "/nonexistent/x.svg: No such file or directory" \
    --csv kept.csv --plot /nonexistent/x.svg
bad_exit "--reps-csv in a missing folder" 1 "/nonexistent/r.csv: No such file or directory" \
    --csv kept.csv --reps-csv /nonexistent/r.csv
mkdir -p adir
bad_exit "--csv a folder" 1 "adir: Is a directory" --csv adir
bad_exit "a bad point" 2 "--frame-size: 10 is out of range (18 to 65535)" --csv kept.csv \
    --frame-size 64,10
bad_exit "conflicting outputs" 2 "--csv, --reps-csv: conflicting options: both write kept.csv" \
    --csv kept.csv --reps-csv ./kept.csv
# --help: once, exit 0.
timeout -k 5 60 mpirun --allow-run-as-root --oversubscribe -n 2 "$MPI_EXE" sweep --help > help.out ||
    fail "--help under MPI"
[ "$(grep -c '^usage: ' help.out)" -eq 1 ] || fail "--help under MPI: $(grep -c '^usage: ' help.out) copies"
echo "mpi: 2 ranks write the same CSV as one process"
