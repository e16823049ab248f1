// Count TODO comments per Go package (directory), busiest first.
const res = await tools.grep({ pattern: "TODO", include: "*.go", output_mode: "count" });
const perPackage = new Map<string, number>();
for (const [file, n] of Object.entries(res.counts ?? {})) {
  const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ".";
  perPackage.set(dir, (perPackage.get(dir) ?? 0) + (n as number));
}
const rows = [...perPackage].sort((a, b) => b[1] - a[1]);
for (const [dir, n] of rows) console.log(`${String(n).padStart(4)}  ${dir}`);
return `${rows.length} packages with TODOs`;
