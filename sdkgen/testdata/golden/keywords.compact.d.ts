/** Any JSON value. */
type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** An object & Open may hold keys it does not list. */
type Open = { [key: string]: unknown } & { [K in keyof Object]?: unknown };

/** A failed tool call rejects with this error: toolName is the tool, code a stable code such as INVALID_ARGS, TOOL_TIMEOUT or DENIED. */
declare class ToolCallError extends Error { readonly toolName: string; readonly code: string }

/** The tools, as async functions. */
declare const tools: {
  /** Annotations become doc lines. */
  kw_annotations(args: {
    /** Identifier Server-assigned id. */
    readonly id: string;
    /** Use new instead. @deprecated */
    old?: string;
    /** Format: date-time. @example "2024-01-02T03:04:05Z" */
    when?: string;
    /** Minimum: 0. Maximum: 100. @default 10 */
    count?: number;
    /** Greater than: 0. Less than: 1. Multiple of: 0.01. */
    ratio?: number;
    /** Pattern: ^[A-Z]{3}$ Minimum length: 3. Maximum length: 3. */
    code?: string;
    /**
     * First line.
     *
     * Second paragraph with *\/ inside.
     * Windows line.
     */
    multi?: string;
    /** Write-only. */
    secret?: string;
    /** @example "OpenAPI style" */
    example?: string;
  } & Open): Promise<{ ok: boolean }>;

  /** items, tuples and their rest. */
  kw_arrays(args?: {
    strings?: string[];
    anything?: JsonValue[];
    nested?: number[][];
    pair?: [string?, number?];
    /** Minimum items: 1. Maximum items: 2. */
    pair_min?: [string, number?];
    /** Minimum items: 1. */
    head_rest?: [string, ...boolean[]];
    /** Minimum items: 1. */
    head_open?: [string, ...JsonValue[]];
    /** Minimum items: 2. */
    draft4_tuple?: [number, string];
    /** Minimum items: 1. */
    draft4_rest?: [number, ...string[]];
    no_items?: never[];
  } & Open): Promise<JsonValue>;

  /** enum and const of every scalar kind, with odd text. */
  kw_enum_const(args: {
    color: "red" | "dark blue" | "say \"hi\"" | "back\\slash" | "end */ comment" | "line\nbreak" | "sep\u2028arator" | "ünï";
    level: 1 | 2 | 3.5 | -1 | 10000000000000000000;
    flag: true | false | null;
    mixed: "a" | 1 | true | null | { k: "v" } | [1, 2];
    fixed: "v1";
    fixed_num?: 42;
    unit?: "F" | "C";
    unit_or_null?: "F" | "C" | null;
    /** No enum or const value matches the type; no value is valid. */
    mismatch?: never;
  } & Open): Promise<JsonValue>;

  /** Keys that are not identifiers or are keywords. */
  kw_names(args: {
    "dash-name": string;
    "123start"?: number;
    "with space"?: boolean;
    "quote\"d"?: string;
    ""?: string;
    from: string;
    class?: number;
    delete?: boolean;
    __proto__?: string;
    __private?: string;
    str?: string;
    $dollar?: string;
    "ünicode"?: string;
  } & Open): Promise<JsonValue>;

  /** OpenAPI 3.0 nullable. */
  kw_nullable(args: {
    name: string | null;
    tags?: string[] | null;
  } & Open): Promise<JsonValue>;

  /** properties, required, defaults, additionalProperties and patternProperties. */
  kw_objects(args: {
    closed: { a?: string };
    empty_closed?: { [key: string]: never };
    open_absent?: {
      a?: string;
    } & Open;
    open_true?: {
      a?: string;
    } & Open;
    typed_extra: {
      a: string;
      b?: boolean;
      [key: string]: number | string | boolean | undefined;
    };
    map?: {
      [key: string]: string[];
    };
    patterned?: object & { [key: `x-${string}`]: string } & { [key: `n_${string}`]: number };
    /** @default "fast" */
    with_default?: string;
    required_undeclared?: {
      a: string;
      /** Required by the schema but not described in its properties. */
      ghost: JsonValue;
    } & Open;
  } & Open): Promise<JsonValue>;

  /** Each JSON type, and type arrays. */
  kw_type(args: {
    s: string;
    n: number;
    i: number;
    b: boolean;
    z: null;
    o: { [key: string]: JsonValue };
    a: JsonValue[];
    untyped: JsonValue;
    yes: JsonValue;
    no?: never;
    maybe: string | null;
    num_or_str: number | string;
    obj_or_null: {
      x: number;
    } & Open | null;
    list_or_null: string[] | null;
  } & Open): Promise<JsonValue>;

  /** anyOf, oneOf and allOf. */
  kw_unions(args?: {
    any?: string | number;
    one?: { kind: "circle"; r: number } | { kind: "square"; side: number };
    list_of_union?: (string | number)[];
    union_of_lists?: string[] | null;
    both?: {
      a: string;
    } & {
      b?: number;
    } & Open;
    all_and_any?: {
      id?: string;
    } & ({
      x: number;
    } & Open | {
      y: number;
    } & Open) & Open;
    nested?: string | boolean | null;
  } & Open): Promise<JsonValue>;
};
