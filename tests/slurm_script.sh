#!/bin/bash
# The Slurm batch script end to end, with stand-ins for srun (one rank, run
# directly) and scontrol: SIGTERM at the "time limit" leaves a checkpoint and a
# requeue; the requeued job resumes and gives the price of an unstopped run.
#   slurm_script.sh MCSIM SOURCE_DIR
set -u
mcsim=$1 src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir -p "$dir/bin"
printf '#!/bin/bash\nwhile [[ "$1" == --* ]]; do shift; done\nexec "$@"\n' > "$dir/bin/srun"
printf '#!/bin/bash\necho "$*" >> "%s/requeued"\n' "$dir" > "$dir/bin/scontrol"
chmod +x "$dir/bin/srun" "$dir/bin/scontrol"
cat > "$dir/job.yaml" <<'YAML'
run: { name: long, paths: 60_000_000, seed: 3, precision: double, checkpoint_s: 0.2 }
model:
  type: option
  process: { type: gbm, spot: 100, rate: 0.05, volatility: 0.2 }
  instrument: { type: european, option: call, strike: 100, maturity: 1 }
YAML
cd "$dir"
export PATH="$dir/bin:$PATH" SLURM_JOB_NAME=long SLURM_JOB_ID=77 SLURM_CPUS_PER_TASK=1 MCSIM="$mcsim"
fail() { echo "FAIL: $*"; cat log1 log2 2>/dev/null; exit 1; }

bash "$src/scripts/slurm/mcsim.sbatch" job.yaml --backend cpu > log1 2>&1 &
job=$!
for _ in $(seq 400); do [ -e results/long-77.ckpt.h5 ] && break; sleep 0.05; done
[ -e results/long-77.ckpt.h5 ] || fail "no checkpoint appeared"
kill -TERM "$job"
wait "$job"; status=$?
[ "$status" -eq 3 ] || fail "first attempt exited $status, not 3"
grep -q "requeue 77" requeued || fail "the job was not requeued"
[ -e results/long-77.h5 ] && fail "a results file after a stop"

bash "$src/scripts/slurm/mcsim.sbatch" job.yaml --backend cpu > log2 2>&1 || fail "the requeued attempt failed"
compgen -G "results/long-77.ckpt*.h5" > /dev/null && fail "checkpoints left after the finished run"
[ -e results/long-77.h5 ] || fail "no results/long-77.h5 after the requeued attempt"
events=results/long-77.events.jsonl
[ "$(grep -c '"event": "start"' $events)" -eq 2 ] || fail "the event log does not hold both attempts' starts"
grep -q '"event": "stopped"' $events || fail "the event log has no stop"
grep -q '"event": "done"' $events || fail "the event log has no done"
"$mcsim" run job.yaml --backend cpu -q -o whole.h5 > log3 2>&1 || fail "the unstopped run failed"
[ "$(grep ' price ' log2)" = "$(grep ' price ' log3)" ] || fail "resumed and unstopped prices differ"
echo "slurm script: stopped, requeued, resumed into results/long-77.h5; price as an unstopped run; one event log of both attempts"
