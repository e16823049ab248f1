# Correct use of the generated stubs: mypy --strict must accept it.
from builtin import ToolCallError, tools as builtin_tools
from names import tools as names_tools


async def main() -> str:
    file = await builtin_tools.read({"file_path": "go.mod", "limit": 20})
    lines: int = file["total_lines"]
    found = await builtin_tools.grep({"pattern": "main", "-i": True, "output_mode": "content"})
    for m in found.get("matches", []):
        print(m["file"], m["line"])
    try:
        await builtin_tools.bash({"command": "go test ./..."})
    except ToolCallError as e:
        return e.tool_name + e.code
    await names_tools["my-mcp.tool"]({"x": "a"})
    await names_tools["class"]({"from": "x"})
    await names_tools.my_mcp_tool({"y": "b"})
    return file["content"] + str(lines)
