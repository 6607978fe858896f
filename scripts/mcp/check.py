"""Issue 19, acceptance 1: the Python `mcp` SDK (PyPI) as a real MCP client of
`almirah mcp` over stdio, against sample-docs plus one hr-only page.

Usage: check.py ALMIRAH_BINARY WORK_DIR   (WORK_DIR holds data/, config.toml, hr.toml; see scripts/mcp-python.sh)
Prints one line per check and closes with "N passed, M failed"; exits 1 on a failure.
"""

import asyncio
import json
import subprocess
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

BIN, WORK = sys.argv[1], sys.argv[2]
HOSTEL = "What hostel fee does a North-East scholarship holder pay?"
results = []


def check(name, ok, detail=""):
    results.append(ok)
    print(("ok    " if ok else "FAIL  ") + name + ("" if ok else f": {detail[:600]}"))


def cli(config, *args):
    out = subprocess.run([BIN, "--data-dir", f"{WORK}/data", "--config", config, "--json", *args],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def text(result):
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def main():
    found = cli(f"{WORK}/config.toml", "search", "hostel fee scholarship holders", "--all-versions")
    withheld_key = next(w["hit"]["key"] for w in found["withheld"] if w["hit"]["key"].startswith("circular-09@2024-25"))
    hidden_key = cli(f"{WORK}/hr.toml", "search", "Band A pays", "-k", "1")["results"]["hits"][0]["key"]
    params = StdioServerParameters(command=BIN, args=["--data-dir", f"{WORK}/data", "--config", f"{WORK}/config.toml", "mcp"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            check("initialize names the server almirah", init.server_info.name == "almirah", str(init))
            tools = sorted(t.name for t in (await session.list_tools()).tools)
            want = sorted(["search_documents", "read_chunk", "list_documents", "lookup_table", "ask"])
            check("lists the five tools", tools == want, str(tools))

            answer = await session.call_tool("ask", {"question": HOSTEL})
            body = text(answer)
            check("ask cites Circular-14", "[circular-14@2026-27::" in body and not answer.is_error, body)
            check("ask notes Circular-09 as withheld", "circular-09@2024-25: superseded by circular-14@2026-27" in body, body)
            structured = answer.structured_content or {}
            cited = [c["key"] for c in structured.get("citations", [])]
            check("structured citations are Circular-14 only",
                  bool(cited) and all(k.startswith("circular-14@2026-27") for k in cited), str(structured))

            old = await session.call_tool("read_chunk", {"key": withheld_key})
            check("read_chunk of a withheld key returns the reason, not the text",
                  "superseded by circular-14@2026-27" in text(old) and "<document" not in text(old), text(old))
            hidden = await session.call_tool("read_chunk", {"key": hidden_key, "audience": ["hr-only"]})
            unknown = await session.call_tool("read_chunk", {"key": "nothing@1::here#1"})
            same = text(hidden).replace(hidden_key, "K") == text(unknown).replace("nothing@1::here#1", "K")
            check("read_chunk of a hidden key replies exactly as for an unknown key",
                  same and hidden.is_error and unknown.is_error, f"{text(hidden)!r} vs {text(unknown)!r}")
            check("the hidden page never shows", "CANARY" not in text(hidden), text(hidden))

            search = await session.call_tool("search_documents", {"query": "hostel fee scholarship", "k": 99, "as_of": "2024-10-01"})
            s = text(search)
            check("search returns delimited passages with key, document and status",
                  'document="circular-14@2026-27"' in s and 'status="current"' in s and 'key="circular-09' not in s, s)
            empty = await session.call_tool("search_documents", {"query": ""})
            check("an empty query is a tool error", empty.is_error and "missing argument" in text(empty), text(empty))
    failed = results.count(False)
    print(f"mcp python client: {results.count(True)} passed, {failed} failed")
    return 1 if failed else 0


sys.exit(asyncio.run(main()))
