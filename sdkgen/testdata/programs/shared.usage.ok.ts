// Tools sharing result types, a list type and an escalation mode: must compile.
async function main(): Promise<string> {
  const started = await tools.job_start({ command: "make", mode: "workspace-write", why: "build" });
  const now = await tools.job_status({ job_id: started.job_id });
  const stopped = await tools.job_stop();
  const list = await tools.list_set({ items: [{ text: "build", done: now.status === "done" }] });
  const more = await tools.open_args({ entry: { name: "a", extra: true } });
  return stopped.status + list.items.map((i) => i.text).join(",") + (more.entry.size ?? 0);
}
