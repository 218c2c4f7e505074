"""Interop: the official MCP Python SDK client (PyPI `mcp`, pinned in run.sh) drives the
`stdio_server` example over stdio on every protocol version it supports, and checks each tool
result. Prints `N passed, M failed`; exits 1 on any failure.

Usage: python_client.py PATH_TO_STDIO_SERVER
"""

import asyncio
import json
import sys
from contextlib import AsyncExitStack

from handshake import session_2025_06_18
from mcp import types
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

SERVER = StdioServerParameters(command=sys.argv[1], args=[])

VALID = {"name": "Ada", "party_size": 4, "seating": "Outdoor"}
INVALID = {"name": "", "party_size": 40, "seating": "Roof"}

# scenario -> (the client's answer, check of the tool result)
SCENARIOS = {
    "accept": (
        types.ElicitResult(action="accept", content=VALID),
        lambda text, error: not error and json.loads(text) == {"action": "accept", "content": VALID},
    ),
    "decline": (
        types.ElicitResult(action="decline"),
        lambda text, error: not error and json.loads(text) == {"action": "decline"},
    ),
    "cancel": (
        types.ElicitResult(action="cancel"),
        lambda text, error: not error and json.loads(text) == {"action": "cancel"},
    ),
    "invalid": (
        types.ElicitResult(action="accept", content=INVALID),
        lambda text, error: error
        and all(f"`{p}`" in text for p in ("name", "party_size", "seating")),
    ),
}


def callback_for(answer, seen):
    async def on_elicit(context, params):
        seen.append(params)
        return answer

    return on_elicit


async def connect(version, callback, **callbacks):
    if version == "2025-06-18":
        stack, session = await session_2025_06_18(SERVER, callback, **callbacks)
        return stack, session, session.call_tool
    stack = AsyncExitStack()
    mode = "legacy" if version == "2025-11-25" else "auto"
    client = await stack.enter_async_context(
        Client(SERVER, mode=mode, elicitation_callback=callback, **callbacks)
    )
    # The high-level client runs the 2026-07-28 input-required loop itself.
    return stack, client.session, client.call_tool


async def run(version, scenario):
    answer, check = SCENARIOS[scenario]
    seen = []
    stack, session, call_tool = await connect(version, callback_for(answer, seen))
    try:
        if session.protocol_version != version:
            return f"negotiated {session.protocol_version}"
        result = await call_tool("book_table", {})
        if isinstance(result, types.InputRequiredResult):
            # The high-level client completes input requests itself; the session may not.
            return "input required result reached the caller"
        text = "\n".join(c.text for c in result.content if isinstance(c, types.TextContent))
        if len(seen) != 1:
            return f"{len(seen)} elicitations"
        schema = seen[0].requested_schema
        props = list(schema["properties"]) if isinstance(schema, dict) else list(schema.properties)
        if props != ["name", "party_size", "seating", "notes"]:
            return f"properties in the wrong order: {props}"
        if not check(text, bool(result.is_error)):
            return f"unexpected result (isError={result.is_error}): {text}"
        return None
    finally:
        await stack.aclose()


async def multi_select(version):
    """A multi-select: on 2025-06-18 the form holds one box per choice, which the person
    ticks; the tool reads the list on every version."""
    seen = []

    async def on_elicit(context, params):
        seen.append(params)
        schema = params.requested_schema
        props = schema["properties"] if isinstance(schema, dict) else schema.properties
        if "extras__Cake" in props:
            content = {"extras__Cake": True, "extras__Flowers": False, "extras__Candles": True}
        else:
            content = {"extras": ["Cake", "Candles"]}
        return types.ElicitResult(action="accept", content=content)

    stack, session, call_tool = await connect(version, on_elicit)
    try:
        result = await call_tool("order_extras", {})
        text = "\n".join(c.text for c in result.content if isinstance(c, types.TextContent))
        schema = seen[0].requested_schema if seen else {}
        props = list(schema["properties"]) if isinstance(schema, dict) else list(schema.properties)
        boxes = ["extras__Cake", "extras__Flowers", "extras__Candles"]
        if (props == boxes) != (version == "2025-06-18"):
            return f"the form's properties: {props}"
        expected = {"action": "accept", "content": {"extras": ["Cake", "Candles"]}}
        if result.is_error or json.loads(text) != expected:
            return f"unexpected result (isError={result.is_error}): {text}"
        return None
    finally:
        await stack.aclose()


async def plan_evening(version):
    """A form, a sampling request and the roots in straight-line code: the same result on
    every version, each request made once."""
    seen = []

    async def on_elicit(context, params):
        seen.append("elicitation")
        return types.ElicitResult(action="accept", content=VALID)

    async def on_sample(context, params):
        seen.append("sampling")
        asked = params.messages[0].content.text
        if asked != "Suggest one dish for tonight." or params.max_tokens != 60:
            raise ValueError(f"unexpected sampling request: {params}")
        return types.CreateMessageResult(
            role="assistant",
            content=types.TextContent(type="text", text="Ratatouille"),
            model="interop-model",
            stop_reason="endTurn",
        )

    async def on_roots(context):
        seen.append("roots")
        return types.ListRootsResult(roots=[types.Root(uri="file:///srv/menu", name="Menu")])

    stack, session, call_tool = await connect(
        version, on_elicit, sampling_callback=on_sample, list_roots_callback=on_roots
    )
    try:
        result = await call_tool("plan_evening", {})
        text = "\n".join(c.text for c in result.content if isinstance(c, types.TextContent))
        expected = {"name": "Ada", "dish": "Ratatouille", "roots": ["file:///srv/menu"]}
        if result.is_error or json.loads(text) != expected:
            return f"unexpected result (isError={result.is_error}): {text}"
        if seen != ["elicitation", "sampling", "roots"]:
            return f"the requests made: {seen}"
        return None
    finally:
        await stack.aclose()


async def read_menu(version):
    """A resource that asks, as a tool does: `resources/read` answered with the form's answer,
    live on 2025-era versions and in a round on 2026-07-28."""
    seen = []

    async def on_elicit(context, params):
        seen.append(params.message)
        return types.ElicitResult(action="accept", content={"vegetarian": True})

    if version == "2025-06-18":
        stack, session = await session_2025_06_18(SERVER, on_elicit)
        read = session.read_resource
    else:
        stack = AsyncExitStack()
        mode = "legacy" if version == "2025-11-25" else "auto"
        client = await stack.enter_async_context(
            Client(SERVER, mode=mode, elicitation_callback=on_elicit)
        )
        read = client.read_resource
    try:
        result = await read("menu://tonight")
        texts = [c.text for c in result.contents]
        if texts != ["Ratatouille"]:
            return f"unexpected contents: {texts}"
        if seen != ["Anything the party can't eat?"]:
            return f"the forms shown: {seen}"
        return None
    finally:
        await stack.aclose()


async def main():
    passed, failed = 0, []
    for version in ("2025-06-18", "2025-11-25", "2026-07-28"):
        for scenario in [*SCENARIOS, "multi-select", "plan-evening", "resource"]:
            try:
                if scenario == "resource":
                    step = read_menu(version)
                elif scenario == "multi-select":
                    step = multi_select(version)
                elif scenario == "plan-evening":
                    step = plan_evening(version)
                else:
                    step = run(version, scenario)
                problem = await asyncio.wait_for(step, timeout=60)
            except Exception as exc:  # report every failure, then fail the run
                problem = f"{type(exc).__name__}: {exc}"
            name = f"{version} {scenario}"
            if problem is None:
                passed += 1
                print(f"ok   {name}")
            else:
                failed.append(name)
                print(f"FAIL {name}: {problem}")
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
