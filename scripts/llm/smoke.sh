#!/usr/bin/env bash
# Smoke-test a running llama.cpp server (scripts/llm-server.sh start) with the
# three request kinds Almirah uses: plain chat, chat with `tools`, and chat
# with a `response_format` JSON schema. Prints each response (JSON) and its
# latency; exits non-zero when a request fails or the schema step's output is
# not valid JSON with an allowed `action`.
#
# Usage: scripts/llm/smoke.sh [BASE_URL]   (default http://127.0.0.1:8089/v1)
# Needs curl and jq.
set -euo pipefail

BASE="${1:-http://127.0.0.1:${ALMIRAH_LLM_PORT:-8089}/v1}"
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
fail=0

post() { # name body
    local name="$1" body="$2" t
    t="$(curl -sS -o "$OUT/$name.json" -w '%{http_code} %{time_total}' \
        -H 'Content-Type: application/json' -d "$body" "$BASE/chat/completions")"
    echo "== $name: HTTP ${t% *}, ${t#* }s"
    jq -c . "$OUT/$name.json"
    [[ "${t% *}" == 200 ]] || fail=1
}

Q="What is the hostel fee for scholarship holders?"
SYS="You answer questions about institutional policy documents."

post plain "$(jq -nc --arg q "In one sentence, what is earned leave?" '{
  messages: [{role: "system", content: "You are a concise assistant."}, {role: "user", content: $q}],
  max_tokens: 64, temperature: 0}')"

post tools "$(jq -nc --arg q "$Q" --arg sys "$SYS Use the search_documents tool to find relevant passages before answering." '{
  messages: [{role: "system", content: $sys}, {role: "user", content: $q}],
  tools: [{type: "function", function: {name: "search_documents",
    description: "Search the policy document library and return the most relevant passages.",
    parameters: {type: "object", properties: {query: {type: "string", description: "What to search for"}},
                 required: ["query"]}}}],
  tool_choice: "auto", max_tokens: 128, temperature: 0}')"
jq -r '.choices[0].message | if .tool_calls then "tool_calls: \(.tool_calls | tojson)" else "tool_calls empty; content: \(.content)" end' \
    "$OUT/tools.json" || true

post schema "$(jq -nc --arg q "$Q" --arg sys "$SYS You have not searched yet. Decide the next step: action \"search\" with a search query, or action \"answer\" with the final answer. Reply in JSON." '{
  messages: [{role: "system", content: $sys}, {role: "user", content: $q}],
  response_format: {type: "json_schema", json_schema: {name: "action", strict: true, schema: {
    type: "object",
    properties: {action: {type: "string", enum: ["search", "answer"]},
                 query: {type: "string", maxLength: 200},
                 answer: {type: "string", maxLength: 300}},
    required: ["action", "query", "answer"], additionalProperties: false}}},
  max_tokens: 256, temperature: 0}')"
if jq -e '.choices[0].message.content | fromjson | .action | IN("search", "answer")' \
        "$OUT/schema.json" >/dev/null 2>&1; then
    echo "schema: ok"
else
    echo "schema: output does not obey the schema"
    fail=1
fi

exit "$fail"
