/** Any JSON value. */
type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** An object & Open may hold keys it does not list. */
type Open = { [key: string]: unknown } & { [K in keyof Object]?: unknown };

/** A failed tool call rejects with this error: toolName is the tool, code a stable code such as INVALID_ARGS, TOOL_TIMEOUT or DENIED. */
declare class ToolCallError extends Error { readonly toolName: string; readonly code: string }

/** The tools, as async functions. */
declare const tools: {
  /** true and false as whole schemas. */
  boolean_schemas(args: JsonValue): Promise<never>;

  /** A draft-04 schema. */
  draft4(args: {
    /** Minimum: 0. */
    n: number;
    t?: [string?];
  } & Open): Promise<JsonValue>;

  /** A tool without an input schema. */
  no_schema(args?: { [key: string]: JsonValue }): Promise<JsonValue>;

  /** Keywords no type can say degrade one node, never the tool. */
  unexpressible(args: {
    not_null?: string | number | boolean | JsonValue[] | { [key: string]: JsonValue };
    /** The if keyword is not expressed in this type. */
    conditional?: {
      a?: number;
      b?: string;
    } & Open;
    /** $ref https://example.com/schemas/thing.json is not a local reference this generator resolves; typed as any JSON value. */
    remote?: JsonValue;
    /** $ref #/$defs/Nope is not a local reference this generator resolves; typed as any JSON value. */
    missing?: JsonValue;
    /** The $dynamicRef keyword is not expressed in this type. */
    dynamic?: JsonValue;
    fine: string;
  } & Open): Promise<JsonValue>;
};
