/** Any JSON value. */
type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** An object & Open may hold keys it does not list. */
type Open = { [key: string]: unknown } & { [K in keyof Object]?: unknown };

declare namespace ToolTypes {
  export type Item = string;

  export type Old = boolean;

  export type A = B;

  export type L = L[];

  /** A reference cycle without an object in between was cut here; that member is typed as any JSON value. */
  export type B = JsonValue | string;

  /** Query */
  export type Query = {
    filter: Filter;
    /** Limit @default 10 */
    limit?: number;
  } & Open;

  export type Row = {
    cells: (string | number | null)[];
  } & Open;

  /** Filter */
  export type Filter = {
    and: Filter[];
  } & Open | {
    field: string;
    equals?: string | null;
  } & Open;

  export type TreeArgs = {
    root?: TreeArgsRoot;
    legacy?: Leaf;
    copy_of_root?: TreeArgsRoot;
    self?: TreeArgs;
    escaped?: AB;
  } & Open;

  /** A tree node. */
  export type Node = {
    value: number;
    children?: Node[];
    parent?: Node | null;
  } & Open;

  export type TreeArgsRoot = Node;

  export type Leaf = { label: string };

  /** Key with a slash. */
  export type AB = string;

  export type TreeAgainLeaf = number;
}

/** A failed tool call rejects with this error: toolName is the tool, code a stable code such as INVALID_ARGS, TOOL_TIMEOUT or DENIED. */
declare class ToolCallError extends Error { readonly toolName: string; readonly code: string }

/** The tools, as async functions. */
declare const tools: {
  /** $anchor and draft-07 #id references. */
  anchors(args?: {
    a?: ToolTypes.Item;
    b?: ToolTypes.Old;
  } & Open): Promise<JsonValue>;

  /** Reference cycles with no object in between are cut. */
  cycles(args?: {
    a?: ToolTypes.A;
    list?: ToolTypes.L;
  } & Open): Promise<JsonValue>;

  /** A root $ref with definitions, as pydantic v1 and FastMCP emit. */
  pydantic_style(args: ToolTypes.Query): Promise<{ result: ToolTypes.Row | null }>;

  /** Recursion through $defs, a # pointer and a #/properties pointer. */
  tree(args: ToolTypes.TreeArgs): Promise<ToolTypes.Node>;

  /** Shares the identical Node definition; defines a different Leaf. */
  tree_again(args?: {
    node?: ToolTypes.Node;
    leaf?: ToolTypes.TreeAgainLeaf;
  } & Open): Promise<JsonValue>;
};
