/** An object & Open may hold keys it does not list. */
type Open = { [key: string]: unknown } & { [K in keyof Object]?: unknown };

declare namespace ToolTypes {
  export type JobStartResult = {
    job_id: string;
    status: "running" | "done" | "failed" | "stopped";
    /** What it printed so far. */
    output?: string;
  };

  export type Items = {
    /** The item, one short sentence. */
    text: string;
    done: boolean;
  }[];

  export type Mode = "read-only" | "workspace-write" | "git-write" | "danger-full-access";
}

/** A failed tool call rejects with this error: toolName is the tool, code a stable code such as INVALID_ARGS, TOOL_TIMEOUT or DENIED. */
declare class ToolCallError extends Error { readonly toolName: string; readonly code: string }

/** The tools, as async functions. */
declare const tools: {
  /** Start a background job. */
  job_start(args: {
    /** Minimum length: 1. */
    command: string;
    /** Run in a wider sandbox mode; the user must approve it, once or for the session. */
    mode?: ToolTypes.Mode;
    /** Why the wider mode is needed; shown to the user as is. */
    why?: string;
  }): Promise<ToolTypes.JobStartResult>;

  /** A job's status. */
  job_status(args: { job_id: string }): Promise<ToolTypes.JobStartResult>;

  /** Stop a job; every argument is optional (the newest job). */
  job_stop(args?: {
    job_id?: string;
    /** As in job_start. */
    mode?: ToolTypes.Mode;
    /** As in job_start. */
    why?: string;
  }): Promise<ToolTypes.JobStartResult>;

  /** Replace the list; the result is the list as stored. */
  list_set(args: { items: ToolTypes.Items }): Promise<{ items: ToolTypes.Items }>;

  /** Arguments that may hold more keys, like a result of the same shape that is read only. */
  open_args(args: {
    entry: {
      name: string;
      size?: number;
      kind?: string;
    } & Open;
  }): Promise<{ entry: { name: string; size?: number; kind?: string } }>;
};
