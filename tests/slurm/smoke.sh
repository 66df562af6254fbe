#!/usr/bin/env bash
# The test cluster of slurm-cluster does what the Slurm backend relies on: an array job's tasks each run with
# their SLURM_ARRAY_TASK_ID and write where --output says; a finished job's state and exit code are read with
# `scontrol show job -o` (and land in the jobcomp log); scancel ends a running job's processes. Prints how long
# a trivial job takes from sbatch to its end.
#
#   SLURM_CONF=DIR/slurm.conf smoke.sh      (the ctest fixture slurm_cluster sets SLURM_CONF)
set -euo pipefail
: "${SLURM_CONF:?set SLURM_CONF to the slurm.conf of a cluster started by slurm-cluster}"
export SLURM_CONF

failures=0
fail() {
  echo "FAIL $*"
  failures=$((failures + 1))
}

# A folder of the cluster's (so the jobs, run as this user, may write there), new for each run.
work=$(mktemp -d "$(dirname "$SLURM_CONF")/smoke.XXXXXX")
trap 'rm -rf "$work"' EXIT

# wait_done JOB [SECONDS]: waits until squeue no longer lists JOB (all its array tasks), at most SECONDS (60).
wait_done() {
  local deadline=$((SECONDS + ${2:-60}))
  while [[ -n $(squeue -h -j "$1" 2>/dev/null) ]]; do
    ((SECONDS < deadline)) || { fail "job $1 still listed by squeue after ${2:-60}s"; return 1; }
    sleep 0.1
  done
}

# field LINE NAME: the value of NAME= in a line of `scontrol show job -o`.
field() {
  sed -nE "s/.*(^| )$2=([^ ]*).*/\\2/p" <<<"$1"
}

# Up and taking jobs: idle, or busy with the other Slurm tests that ctest runs beside this one.
[[ $(sinfo -h -o '%P %T') =~ ^'sbtest* '(idle|mixed|allocated|completing)$ ]] ||
  fail "sinfo does not show the default partition sbtest up: $(sinfo -h -o '%P %T' 2>&1)"

# 1. An array of 4 tasks.
started=$(date +%s%N)
array=$(sbatch --parsable --array=0-3 --output="$work/slurm-%A_%a.out" \
  --wrap "echo \$SLURM_ARRAY_TASK_ID > $work/out.\$SLURM_ARRAY_TASK_ID")
[[ $array =~ ^[0-9]+$ ]] || fail "sbatch --parsable printed '$array', not a job id"
wait_done "$array"
echo "array of 4 tasks: $((($(date +%s%N) - started) / 1000000)) ms from sbatch to its end"
for task in 0 1 2 3; do
  [[ $(cat "$work/out.$task" 2>/dev/null) == "$task" ]] || fail "array task $task wrote '$(cat "$work/out.$task" 2>&1)'"
  [[ -f $work/slurm-${array}_$task.out ]] || fail "no output file slurm-${array}_$task.out"
done
# One line per task; each its own JobId, with ArrayJobId and ArrayTaskId.
lines=$(scontrol show job -o "$array")
[[ $(wc -l <<<"$lines") == 4 ]] || fail "scontrol show job -o $array printed $(wc -l <<<"$lines") lines, not 4"
while read -r line; do
  task=$(field "$line" ArrayTaskId)
  [[ $(field "$line" ArrayJobId) == "$array" ]] || fail "task $task: ArrayJobId=$(field "$line" ArrayJobId)"
  [[ $(field "$line" JobState) == COMPLETED && $(field "$line" ExitCode) == 0:0 ]] ||
    fail "task $task: JobState=$(field "$line" JobState) ExitCode=$(field "$line" ExitCode)"
done <<<"$lines"
[[ $(field "$(scontrol show job -o "${array}_2")" ArrayTaskId) == 2 ]] || fail "scontrol show job ${array}_2 is not task 2"

# 2. A trivial job's latency, and a failing job's state and exit code.
started=$(date +%s%N)
job=$(sbatch --parsable --output=/dev/null --wrap true)
wait_done "$job"
echo "trivial job: $((($(date +%s%N) - started) / 1000000)) ms from sbatch to its end"
job=$(sbatch --parsable --output="$work/fail.out" --wrap 'exit 3')
wait_done "$job"
line=$(scontrol show job -o "$job")
[[ $(field "$line" JobState) == FAILED && $(field "$line" ExitCode) == 3:0 ]] ||
  fail "a job that exits 3: JobState=$(field "$line" JobState) ExitCode=$(field "$line" ExitCode)"
jobcomp=$(scontrol show config | sed -n 's/^JobCompLoc *= *//p')
grep -q "^JobId=$job .*JobState=FAILED.* ExitCode=3:0" "$jobcomp" 2>/dev/null || fail "the jobcomp log $jobcomp has no FAILED line for job $job"

# 3. scancel of a running job leaves none of its processes.
job=$(sbatch --parsable --output=/dev/null --wrap "sleep 100 & echo \$! > $work/sleep.pid; wait")
deadline=$((SECONDS + 30))
until [[ -s $work/sleep.pid ]]; do
  ((SECONDS < deadline)) || { fail "job $job did not start within 30s"; break; }
  sleep 0.1
done
pid=$(cat "$work/sleep.pid" 2>/dev/null || true)
if [[ -n $pid ]]; then
  kill -0 "$pid" 2>/dev/null || fail "the job's sleep ($pid) does not run"
  scancel "$job"
  wait_done "$job" 30
  deadline=$((SECONDS + 10))
  while kill -0 "$pid" 2>/dev/null && [[ $(cut -d' ' -f3 "/proc/$pid/stat" 2>/dev/null) != Z ]]; do
    ((SECONDS < deadline)) || { fail "the cancelled job's sleep ($pid) still runs"; break; }
    sleep 0.1
  done
  state=$(field "$(scontrol show job -o "$job")" JobState)
  [[ $state == CANCELLED ]] || fail "a cancelled job: JobState=$state"
fi

((failures == 0)) || exit 1
echo "the cluster runs array jobs, reports states and exit codes, and cancels jobs"
