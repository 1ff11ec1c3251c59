#!/usr/bin/env bash
# Scripts/bench-against.sh REV [--runs N] [--rounds K] [--filter TEXT] [--markdown]
#
# The side-by-side benchmark: builds revision REV (a commit, tag or branch) in a git worktree under
# .build/bench-against/, builds this checkout, then runs the two builds' `welkin bench --json`
# alternately, K rounds each (this build, REV, this build, REV, …), so both see the same load on a
# shared machine. Each build draws its own checkout's Scenes/ and Shaders/. For every entry both
# builds report, it prints the best (lowest) of the K medians of each and the ratio this ÷ REV
# (below 1: this build is faster). Entries only one build has are listed after, without a ratio.
#
#   Scripts/bench-against.sh b2b19f4 --filter gpu.scene --runs 5 --rounds 2
#
# Defaults: --runs 5, --rounds 2, --filter gpu.scene. Exit 1 when a build or a bench run fails.
set -euo pipefail

usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }
[ $# -ge 1 ] || { usage >&2; exit 2; }
case "$1" in -h|--help) usage; exit 0 ;; esac
rev="$1"; shift
runs=5; rounds=2; filter=gpu.scene; markdown=0
while [ $# -gt 0 ]; do
    case "$1" in
        --runs) runs="$2"; shift 2 ;;
        --rounds) rounds="$2"; shift 2 ;;
        --filter) filter="$2"; shift 2 ;;
        --markdown) markdown=1; shift ;;
        *) echo "bench-against.sh: unknown option '$1'" >&2; usage >&2; exit 2 ;;
    esac
done

root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
sha="$(git rev-parse --verify --quiet "$rev^{commit}")" || { echo "bench-against.sh: '$rev' is not a revision of this repository" >&2; exit 1; }
short="$(git rev-parse --short "$sha")"
tree="$root/.build/bench-against/$short"
if [ ! -d "$tree" ]; then
    mkdir -p "$root/.build/bench-against"
    git worktree prune
    git worktree add --detach "$tree" "$sha" >/dev/null
fi
echo "bench-against: building $short in $tree" >&2
swift build -c release --package-path "$tree" >&2
echo "bench-against: building this checkout" >&2
swift build -c release --package-path "$root" >&2

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for ((i = 1; i <= rounds; i++)); do
    echo "bench-against: round $i of $rounds: this build" >&2
    "$root/.build/release/welkin" bench --json --runs "$runs" --filter "$filter" > "$out/this.$i.json"
    echo "bench-against: round $i of $rounds: $short" >&2
    "$tree/.build/release/welkin" bench --json --runs "$runs" --filter "$filter" > "$out/rev.$i.json"
done

python3 - "$out" "$rounds" "$short" "$markdown" "$runs" "$filter" <<'EOF'
import json, sys, glob
out, rounds, short, markdown, runs, flt = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4] == "1", sys.argv[5], sys.argv[6]
def best(kind):
    values, units = {}, {}
    for path in sorted(glob.glob(f"{out}/{kind}.*.json")):
        for row in json.load(open(path)):
            if row["value"] is None: continue
            units[row["name"]] = row["unit"]
            values[row["name"]] = min(values.get(row["name"], float("inf")), row["value"])
    return values, units
this, units = best("this")
rev, rev_units = best("rev")
both = [n for n in this if n in rev and units[n] == "ms"]
only = sorted(set(this) ^ set(rev))
header = f"best of {rounds} medians of {runs} runs each (--filter {flt}), alternating builds; ratio = this ÷ {short}"
if markdown:
    print(header + ":\n")
    print(f"| entry | {short} | this | ratio |")
    print("|---|---:|---:|---:|")
    for n in both:
        print(f"| `{n}` | {rev[n]:.2f} | {this[n]:.2f} | {this[n] / rev[n]:.2f} |")
else:
    print(header)
    w = max([len(n) for n in both + only] + [5])
    print(f"{'entry':<{w}}  {short:>10}  {'this':>10}  {'ratio':>6}")
    for n in both:
        print(f"{n:<{w}}  {rev[n]:10.3f}  {this[n]:10.3f}  {this[n] / rev[n]:6.2f}")
for n in only:
    where = "this build" if n in this else short
    value = this.get(n, rev.get(n))
    print(f"{n:<40}  {value:10.3f} ({where} only)")
EOF
