# Misuse of the generated stubs: mypy must reject every marked line.
from builtin import tools


async def main() -> None:
    await tools.read({"file_path": 42})  # wrong argument type
    await tools.edit({"file_path": "a", "old_string": "x"})  # missing required field
    await tools.raed({"file_path": "a"})  # misspelled tool
