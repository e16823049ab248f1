/** Any JSON value. */
type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

declare namespace ToolTypes {
  export type Match = { file: string; line: number; text: string };
}

/** A failed tool call rejects with this error: toolName is the tool, code a stable code such as INVALID_ARGS, TOOL_TIMEOUT or DENIED. */
declare class ToolCallError extends Error { readonly toolName: string; readonly code: string }

/** The tools, as async functions. */
declare const tools: {
  /** Ask the user one or more multiple-choice questions and wait for the answers. */
  ask_user_question(args: {
    /** Minimum items: 1. Maximum items: 4. */
    questions: {
      question: string;
      /** Maximum length: 12. */
      header?: string;
      /** Minimum items: 2. */
      options: { label: string; description?: string }[];
      /** @default false */
      multiSelect?: boolean;
    }[];
  }): Promise<{ answers: { [key: string]: string } }>;

  /** Run a shell command in the sandbox. */
  bash(args: {
    command: string;
    /** A few words on what the command does. */
    description?: string;
    /** Minimum: 1. Maximum: 600000. */
    timeout_ms?: number;
    sandbox_permissions?: "read-only" | "workspace-write" | "danger-full-access";
    justification?: string;
  }): Promise<{ exit_code: number; output: string; truncated?: boolean }>;

  /** Replace exact text in a file. old_string must occur exactly once unless replace_all is set. */
  edit(args: {
    file_path: string;
    /** Minimum length: 1. */
    old_string: string;
    new_string: string;
    /** @default false */
    replace_all?: boolean;
  }): Promise<{ replacements: number; diff?: string }>;

  /** Leave plan mode and present the plan for approval. */
  exit_plan_mode(args: { plan: string }): Promise<JsonValue>;

  /** List files matching a glob pattern such as src/**\/*.go. */
  glob(args: {
    /** @example "**\/*.go" @example "cmd/*\/main.go" */
    pattern: string;
    /** Directory to search from; the workspace root when absent. */
    path?: string;
  }): Promise<{ files: string[]; truncated: boolean }>;

  /** Search file contents with a regular expression. */
  grep(args: {
    /** Format: regex. */
    pattern: string;
    path?: string;
    glob?: string;
    /** @default "files_with_matches" */
    output_mode?: "content" | "files_with_matches" | "count";
    /** Case-insensitive. */
    "-i"?: boolean;
    "-n"?: boolean;
    /** Minimum: 0. */
    "-C"?: number;
    head_limit?: number;
  }): Promise<{ matches?: ToolTypes.Match[]; files?: string[]; counts?: { [key: string]: number } }>;

  /** Read a text file from the workspace. Lines are numbered from 1. */
  read(args: {
    /** Path relative to the workspace root. */
    file_path: string;
    /** First line to read. Minimum: 1. @default 1 */
    offset?: number;
    /** Minimum: 1. Maximum: 10000. @default 2000 */
    limit?: number;
  }): Promise<{ content: string; total_lines: number; truncated: boolean }>;

  /** Replace the session's todo list. */
  todo_write(args: {
    todos: {
      /** Minimum length: 1. */
      content: string;
      status: "pending" | "in_progress" | "completed";
      id: string;
    }[];
  }): Promise<JsonValue>;

  /** Create or overwrite a file. */
  write(args: { file_path: string; content: string }): Promise<{ bytes_written: number; created: boolean }>;
};
