#!/usr/bin/env bash
# Index all of ../shared/corpora into a throw-away library and print the
# counts per status, the totals and the time taken. The multi-hop pools
# (HotpotQA, MuSiQue) are expanded to one text file per paragraph first;
# everything else is indexed as it is.
# Usage: scripts/index-corpora.sh [--embedder builtin|hash]   (default builtin)
set -euo pipefail
cd "$(dirname "$0")/.."

embedder=builtin
[ "${1:-}" = "--embedder" ] && embedder="$2"
corpora="${ALMIRAH_CORPORA:-$(cd .. && pwd)/shared/corpora}"
[ -d "$corpora" ] || { echo "error: corpora missing at $corpora" >&2; exit 1; }

scripts/fetch-models.sh >/dev/null
cargo build --release --locked -q -p almirah-cli
bin="$(cd "${CARGO_TARGET_DIR:-target}" && pwd)/release/almirah"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

mkdir -p "$work/docs"
for d in handbook_18f handbook_sourcegraph versions_18f_travel_leave versions_rfc_http pdfs_mixed; do
  cp -r "$corpora/$d" "$work/docs/$d"
done
python3 - "$corpora/qa_multihop" "$work/docs/qa_multihop" <<'PY'
import json, os, sys
src, dst = sys.argv[1], sys.argv[2]
def write(name, i, title, text):
    d = os.path.join(dst, name); os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, f"{i:05d}.txt"), "w", encoding="utf-8") as f:
        f.write(f"{title}\n\n{text}\n")
hp = json.load(open(os.path.join(src, "hotpotqa/hotpotqa_train_100_corpus.json")))
for i, (title, sents) in enumerate(hp.items()):
    write("hotpotqa", i, title, "".join(sents))
mq = json.load(open(os.path.join(src, "musique/musique_train_100_corpus.json")))
for i, p in enumerate(mq):
    write("musique", i, p["title"], p["text"])
PY

if [ "$embedder" = hash ]; then
  printf '[embedder]\nprovider = "hash"\ndimensions = 384\n' > "$work/config.toml"
else
  : > "$work/config.toml"
fi
start=$(date +%s)
set +e
"$bin" --config "$work/config.toml" --data-dir "$work/lib" index --quiet "$work/docs" > "$work/report.txt"
code=$?
set -e
end=$(date +%s)
echo "index exit code: $code (2 = some files not indexed), $((end - start)) s, embedder $embedder"
tail -1 "$work/report.txt"
echo
"$bin" --config "$work/config.toml" --data-dir "$work/lib" status --json > "$work/status.json"
"$bin" --config "$work/config.toml" --data-dir "$work/lib" docs --json --as-of "${AS_OF:-2026-11-29}" > "$work/docs.json"
python3 - "$work/status.json" "$work/docs.json" <<'PY'
import collections, json, sys
s = json.load(open(sys.argv[1]))
d = json.load(open(sys.argv[2]))
mib = s["disk_bytes"] / 2**20
print("documents %d, chunks %d, disk %.1f MiB" % (s["documents"], s["chunks"], mib))
print("files per status:")
for k, v in sorted(s["files_by_status"].items()):
    print("  %-18s %d" % (k, v))
print("not indexed:")
for p in s["problems"]:
    print("  %-17s %s: %s" % (p["status"], p["path"].split("/docs/", 1)[-1], p.get("reason") or ""))
print()
print("documents per freshness status as of %s (session %s):" % (d["as_of"]["date"], d["as_of"]["session"]))
docs = d["documents"]
top = collections.Counter(x["statuses"][0] for x in docs)
for k, v in sorted(top.items()):
    print("  %-14s %d" % (k, v))
by_folder = collections.defaultdict(collections.Counter)
for x in docs:
    folder = x["path"].split("/docs/", 1)[-1].split("/", 1)[0]
    by_folder[folder][x["statuses"][0]] += 1
print("per corpus:")
for f, c in sorted(by_folder.items()):
    print("  %-26s %s" % (f, dict(sorted(c.items()))))
print("withheld outside the versioned corpora (check for wrong inferences):")
for x in docs:
    folder = x["path"].split("/docs/", 1)[-1].split("/", 1)[0]
    if x["statuses"] != ["current"] and folder not in ("versions_18f_travel_leave", "versions_rfc_http"):
        print("  %s [%s] %s" % (x["key"], ",".join(x["statuses"]), x["reason"]))
PY
