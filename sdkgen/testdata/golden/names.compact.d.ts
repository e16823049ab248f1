/** Any JSON value. */
type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** An object & Open may hold keys it does not list. */
type Open = { [key: string]: unknown } & { [K in keyof Object]?: unknown };

declare namespace ToolTypes {
  export type Error = {
    message?: string;
  } & Open;

  export type Node = string;

  export type ErrorJsonValue = number;
}

/** A failed tool call rejects with this error: toolName is the tool, code a stable code such as INVALID_ARGS, TOOL_TIMEOUT or DENIED. */
declare class ToolCallError extends Error { readonly toolName: string; readonly code: string }

/** The tools, as async functions; call one whose name is not an identifier as tools["my-tool"](args). */
declare const tools: {
  /** Leading digit. */
  "123go"(args?: { [key: string]: JsonValue }): Promise<JsonValue>;

  /** Named like a global. */
  Error(args?: {
    e?: ToolTypes.Error;
    n?: ToolTypes.Node;
    j?: ToolTypes.ErrorJsonValue;
  } & Open): Promise<JsonValue>;

  /** Leading underscore. */
  _private(args?: { [key: string]: JsonValue }): Promise<JsonValue>;

  /** A Python keyword. */
  class(args: {
    from: string;
  } & Open): Promise<JsonValue>;

  /** A JavaScript reserved word: still a legal member name in TypeScript and a method name in Python. */
  delete(args?: { [key: string]: JsonValue }): Promise<JsonValue>;

  /** Dots and dashes. */
  "my-mcp.tool"(args?: {
    x?: string;
  } & Open): Promise<JsonValue>;

  /** Would collide with my-mcp.tool if names were rewritten. */
  my_mcp_tool(args: {
    y: string;
  } & Open): Promise<JsonValue>;

  /** Ends a comment: *\/ and has "quotes". */
  "with space"(args?: { [key: string]: JsonValue }): Promise<JsonValue>;
};
