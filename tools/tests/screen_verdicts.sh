#!/bin/bash
# expect_screen.cmake's verdicts on a stand-in warpconf: a planted fault counts as caught only where
# every disagreement names the planted SM, lane and slot with its case, the SM is the one asked for,
# and the replay line fails there too; no GPU is SKIPPED, never passed.
# Usage: screen_verdicts.sh <source dir> <work dir>
set -u
source_dir=$1
work=$2
rm -rf "$work" && mkdir -p "$work"
fake=$work/warpconf
cat > "$fake" <<'FAKE'
#!/bin/bash
line() { echo "warpconf screen: disagreement: SM $1, warp slot $2, lane $3, __shfl_sync (unsigned int), case 3, seed 0x1: got 0x1, want 0x0"; }
replaying=0
[[ " $* " == *" --only-sm "* ]] && replaying=1
case $FAKE_MODE in
  no_gpu) echo "warpconf screen: could not test: no GPU"; exit 77 ;;
  conforms) echo "warpconf screen: conforms: 132 of 132 SMs x 32 warp slots"; exit 0 ;;
  conforms_file_fails) echo "warpconf screen: conforms: 132 of 132 SMs x 32 warp slots"; exit 0 ;;
  misses_an_sm) echo "warpconf screen: conforms: 131 of 132 SMs x 32 warp slots"; exit 0 ;;
esac
sm=131; slot=4; [[ $FAKE_MODE == wrong_sm ]] && sm=130
echo "warpconf screen: planted: SM 131, lane 31, every warp slot, every family (sm=last of the 132 SMs seen)"
if [[ $FAKE_MODE == not_caught ]]; then echo "warpconf screen: conforms: 132 of 132 SMs"; exit 0; fi
if [[ $replaying == 1 && $FAKE_MODE == replay_conforms ]]; then echo "warpconf screen: conforms: 1 of 132 SMs"; exit 0; fi
line $sm $slot 31
[[ $FAKE_MODE == also_elsewhere ]] && line 7 0 31
[[ $FAKE_MODE == no_case ]] && echo "warpconf screen: disagreement: SM 131, warp slot 0, lane 31, __shfl_sync (unsigned int), seed 0x1: its hash differs from the model's"
echo "  replay: warpconf screen --level short --seed 0x1 --rounds 1 --only-sm 131 --case 3 --plant sm=last,lane=31"
echo "warpconf screen: FAILED: 1 disagreement (132 of 132 SMs x 32 warp slots x 25 collectives)"
exit 1
FAKE
chmod +x "$fake"
failures=0
# mode, PLANT (or -), want: pass, fail or skip
while read -r mode plant want; do
  args=(-DCLI="$fake" "-DARGS=screen")
  [[ $plant != - ]] && args+=(-DPLANT="$plant")
  # The metrics file a conforming run wrote, or one that says it failed.
  conforms=1 failed=0
  [[ $mode == conforms_file_fails ]] && conforms=0 failed=1
  printf '# HELP warpconf_screen_conforms c.\n# TYPE warpconf_screen_conforms gauge\nwarpconf_screen_conforms{gpu="0"} %s\n# HELP warpconf_screen_failures f.\n# TYPE warpconf_screen_failures gauge\nwarpconf_screen_failures{gpu="0"} %s\n' \
    "$conforms" "$failed" > "$work/screen.prom"
  [[ $mode == conforms* ]] && args+=(-DPROMETHEUS="$work/screen.prom")
  out=$(FAKE_MODE=$mode cmake "${args[@]}" -P "$source_dir/tools/tests/expect_screen.cmake" 2>&1)
  status=$?
  got=pass
  if [[ $status -ne 0 ]]; then got=fail; elif grep -q "^SKIPPED: " <<<"$out"; then got=skip; fi
  if [[ $got != "$want" ]]; then
    echo "FAIL: $mode (PLANT $plant): want $want, got $got"
    echo "$out" | sed 's/^/    /'
    failures=$((failures + 1))
  else
    echo "ok: $mode (PLANT $plant): $got"
  fi
done <<'TABLE'
no_gpu - skip
no_gpu last skip
conforms - pass
conforms_file_fails - fail
misses_an_sm - fail
caught last pass
caught first fail
caught slot fail
wrong_sm last fail
not_caught last fail
replay_conforms last fail
also_elsewhere last fail
no_case last fail
TABLE
exit $((failures > 0))
