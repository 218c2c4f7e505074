"""What both interop scripts share: a session on 2025-06-18, which the Python SDK client does
not offer by itself (its `initialize` offers 2025-11-25), so the handshake is sent by hand."""

from contextlib import AsyncExitStack

from mcp import types
from mcp.client.session import ClientSession
from mcp.client.stdio import stdio_client


async def session_2025_06_18(server, callback, **callbacks):
    """Returns (exit stack, session) for `server` (StdioServerParameters) on 2025-06-18, with
    `callbacks` (sampling, roots) beside the elicitation one."""
    stack = AsyncExitStack()
    read, write = await stack.enter_async_context(stdio_client(server))
    session = await stack.enter_async_context(
        ClientSession(read, write, elicitation_callback=callback, **callbacks)
    )
    version = "2025-06-18"
    result = await session.send_request(
        types.InitializeRequest(
            params=types.InitializeRequestParams(
                protocol_version=version,
                capabilities=session._build_capabilities(version),
                client_info=types.Implementation(name="interop", version="0"),
            )
        ),
        types.InitializeResult,
    )
    session.adopt(result)
    await session.send_notification(types.InitializedNotification())
    return stack, session
