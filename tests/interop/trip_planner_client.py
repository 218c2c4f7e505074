"""Interop: the official MCP Python SDK client (PyPI `mcp`, pinned in run.sh) drives the
`trip_planner` example over stdio on 2025-06-18, 2025-11-25 (the client's legacy mode) and
2026-07-28 (its default mode), and checks the example's contract: which forms are asked, in
which order, and the tool's result. On 2026-07-28 it also drives the rounds by hand to check
that an altered or truncated `requestState` ends in an error, and that a round that reaches
another process is never run blind: one that shares `TRIP_PLANNER_KEY` but keeps its rounds in
its own memory asks the call again, saying the server lost its record, and one with another key
asks it again, saying it could not continue.

Prints `N passed, M failed`; exits 1 on any failure.

Usage: trip_planner_client.py PATH_TO_TRIP_PLANNER
"""

import asyncio
import json
import os
import sys
from contextlib import AsyncExitStack

from handshake import session_2025_06_18
from mcp import types
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from mcp.shared.exceptions import MCPError

SERVER = sys.argv[1]
KEY = "k" * 40

SHORT = {"city": "Lisbon", "nights": 3}
LONG = {"city": "Kyoto", "nights": 9}
EXTRAS = {"rental_car": True, "budget": "Medium"}


def accept(content):
    return types.ElicitResult(action="accept", content=content)


DECLINE = types.ElicitResult(action="decline")
CANCEL = types.ElicitResult(action="cancel")


def wire(answer):
    if answer.action == "accept":
        return {"action": "accept", "content": answer.content}
    return {"action": answer.action}


def plan(trip, extras):
    return {"trip": wire(trip), "extras": None if extras is None else wire(extras)}


def names_in_backticks(*names):
    return lambda text, error: error and all(f"`{n}`" in text for n in names)


# scenario -> (answers in order, forms expected, check of (text, is_error))
SCENARIOS = {
    "short trip": ([accept(SHORT)], 1, plan(accept(SHORT), None)),
    "long trip with extras": ([accept(LONG), accept(EXTRAS)], 2, plan(accept(LONG), accept(EXTRAS))),
    "decline the trip": ([DECLINE], 1, plan(DECLINE, None)),
    "cancel the trip": ([CANCEL], 1, plan(CANCEL, None)),
    "decline the extras": ([accept(LONG), DECLINE], 2, plan(accept(LONG), DECLINE)),
    "cancel the extras": ([accept(LONG), CANCEL], 2, plan(accept(LONG), CANCEL)),
    "invalid trip": (
        [accept({"city": "", "nights": 31})],
        1,
        names_in_backticks("city", "nights"),
    ),
    "invalid extras": (
        [accept(LONG), accept({"rental_car": "yes", "budget": "Lavish"})],
        2,
        names_in_backticks("rental_car", "budget"),
    ),
}

FORMS = [
    (
        ["city", "nights"],
        {
            "city": {"type": "string", "minLength": 1, "maxLength": 40},
            "nights": {"type": "integer", "minimum": 1, "maximum": 30},
        },
    ),
    (
        ["rental_car", "budget"],
        {"rental_car": {"type": "boolean"}, "budget": {"type": "string", "enum": ["Low", "Medium", "High"]}},
    ),
]


def schema_problem(index, params):
    schema = params.requested_schema
    schema = schema if isinstance(schema, dict) else schema.model_dump(by_alias=True, exclude_none=True)
    names, rules = FORMS[index]
    if list(schema["properties"]) != names:
        return f"form {index + 1} has properties {list(schema['properties'])}"
    if sorted(schema.get("required", [])) != sorted(names):
        return f"form {index + 1} requires {schema.get('required')}"
    for name, expected in rules.items():
        prop = schema["properties"][name]
        for keyword, value in expected.items():
            if prop.get(keyword) != value:
                return f"form {index + 1}: `{name}` has {keyword} {prop.get(keyword)!r}, not {value!r}"
    return None


def server(key=KEY):
    return StdioServerParameters(command=SERVER, args=[], env={**os.environ, "TRIP_PLANNER_KEY": key})


def answering(answers, seen):
    queue = list(answers)

    async def on_elicit(context, params):
        seen.append(params)
        return queue.pop(0) if queue else CANCEL

    return on_elicit


async def connect(version, callback, params=None):
    params = params or server()
    if version == "2025-06-18":
        stack, session = await session_2025_06_18(params, callback)
        return stack, session, session.call_tool
    stack = AsyncExitStack()
    mode = "legacy" if version == "2025-11-25" else "auto"
    client = await stack.enter_async_context(Client(params, mode=mode, elicitation_callback=callback))
    return stack, client.session, client.call_tool


def text_of(result):
    return "\n".join(c.text for c in result.content if isinstance(c, types.TextContent))


async def scenario(version, name):
    answers, forms, check = SCENARIOS[name]
    seen = []
    stack, session, call_tool = await connect(version, answering(answers, seen))
    try:
        if session.protocol_version != version:
            return f"negotiated {session.protocol_version}"
        result = await call_tool("plan_trip", {})
        if len(seen) != forms:
            return f"{len(seen)} forms asked, not {forms}"
        for index, params in enumerate(seen):
            if problem := schema_problem(index, params):
                return problem
        text = text_of(result)
        if callable(check):
            if not check(text, bool(result.is_error)):
                return f"unexpected result (isError={result.is_error}): {text}"
        elif result.is_error or json.loads(text) != check:
            return f"unexpected result (isError={result.is_error}): {text}"
        return None
    finally:
        await stack.aclose()


async def first_round(params=None):
    """2026-07-28 by hand: the first call's InputRequiredResult, on a session left open."""
    stack, session, _ = await connect("2026-07-28", answering([], []), params)
    first = await session.call_tool("plan_trip", {}, allow_input_required=True)
    return stack, session, first


async def retry(session, first, answer, state):
    key = next(iter(first.input_requests))
    return await session.call_tool(
        "plan_trip",
        {},
        input_responses={key: answer},
        request_state=state,
        allow_input_required=True,
    )


async def tampered_state():
    stack, session, first = await first_round()
    try:
        if not isinstance(first, types.InputRequiredResult):
            return f"the first call was not input_required: {first}"
        if list(first.input_requests) != ["trip"]:
            return f"asked for {list(first.input_requests)}"
        state = first.request_state
        long_trip = {"action": "accept", "content": LONG}
        flipped = state[:-6] + ("A" if state[-6] != "A" else "B") + state[-5:]
        for label, bad in [("altered", flipped), ("truncated", state[: len(state) // 2])]:
            try:
                result = await retry(session, first, long_trip, bad)
            except MCPError as error:
                if "requestState" not in str(error):
                    return f"{label} state: unexpected error {error}"
                continue
            return f"{label} state was not refused: {result}"
        # The untouched state is still good: round 2 asks for the extras.
        second = await retry(session, first, long_trip, state)
        if not isinstance(second, types.InputRequiredResult) or list(second.input_requests) != ["extras"]:
            return f"the untouched state did not lead to round 2: {second}"
        return None
    finally:
        await stack.aclose()


async def asked_again(params, first, says):
    """Round 2 on another process: the trip is asked again, and its message says why."""
    long_trip = {"action": "accept", "content": LONG}
    stack, session, _ = await connect("2026-07-28", answering([], []), params)
    try:
        again = await retry(session, first, long_trip, first.request_state)
        if not isinstance(again, types.InputRequiredResult) or list(again.input_requests) != ["trip"]:
            return f"the round was not asked again: {again}"
        message = again.input_requests["trip"].params.message
        if says not in message:
            return f"the question does not say why: {message!r}"
        # Answered again there, the call goes on.
        second = await retry(session, first, long_trip, again.request_state)
        if not isinstance(second, types.InputRequiredResult) or list(second.input_requests) != ["extras"]:
            return f"answered again, the call did not go on: {second}"
        return None
    finally:
        await stack.aclose()


async def two_processes():
    """Round 1 on one process; round 2 on another that shares the key but not a store is asked
    again, and on one with another key too, each saying why."""
    stack_a, _, first = await first_round(server())
    await stack_a.aclose()
    same_key = await asked_again(server(), first, "lost its record of your earlier answers")
    if same_key:
        return f"same key: {same_key}"
    other_key = await asked_again(server("z" * 40), first, "could not continue your earlier answers")
    return f"another key: {other_key}" if other_key else None


async def main():
    checks = [
        (f"{version} {name}", lambda v=version, n=name: scenario(v, n))
        for version in ("2025-06-18", "2025-11-25", "2026-07-28")
        for name in SCENARIOS
    ]
    checks.append(("2026-07-28 altered and truncated state", tampered_state))
    checks.append(("2026-07-28 two processes, each its own store", two_processes))
    passed, failed = 0, []
    for name, check in checks:
        try:
            problem = await asyncio.wait_for(check(), timeout=60)
        except Exception as exc:  # report every failure, then fail the run
            problem = f"{type(exc).__name__}: {exc}"
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
