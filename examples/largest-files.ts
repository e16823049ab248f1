// Find the ten largest Go files by line count.
const { paths } = await tools.glob({ pattern: "**/*.go" });
const sizes = await Promise.all(
  paths.map(async (p) => ({ path: p, lines: (await tools.read({ file_path: p, limit: 1 })).total_lines })),
);
sizes.sort((a, b) => b.lines - a.lines);
return sizes.slice(0, 10).map(({ path, lines }) => `${String(lines).padStart(6)}  ${path}`).join("\n");
