/** Any JSON value. */
type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** An object & Open may hold keys it does not list. */
type Open = { [key: string]: unknown } & { [K in keyof Object]?: unknown };

/** A failed tool call rejects with this error: toolName is the tool, code a stable code such as INVALID_ARGS, TOOL_TIMEOUT or DENIED. */
declare class ToolCallError extends Error { readonly toolName: string; readonly code: string }

/** The tools, as async functions; call one whose name is not an identifier as tools["my-tool"](args). */
declare const tools: {
  /** Echoes back the input string */
  echo(args: {
    /** Message to echo */
    message: string;
  } & Open): Promise<JsonValue>;

  /** Demonstrates how annotations can be used to provide metadata about content. */
  "get-annotated-message"(args: {
    /** Type of message to demonstrate different annotation patterns */
    messageType: "error" | "success" | "debug";
    /** Whether to include an example image @default false */
    includeImage?: boolean;
  } & Open): Promise<JsonValue>;

  /** Returns all environment variables, helpful for debugging MCP server configuration */
  "get-env"(args?: { [key: string]: JsonValue }): Promise<JsonValue>;

  /** Returns up to ten resource links that reference different types of resources */
  "get-resource-links"(args?: {
    /** Number of resource links to return (1-10) Minimum: 1. Maximum: 10. @default 3 */
    count?: number;
  } & Open): Promise<JsonValue>;

  /** Returns a resource reference that can be used by MCP clients */
  "get-resource-reference"(args?: {
    /** @default "Text" */
    resourceType?: "Text" | "Blob";
    /** ID of the text resource to fetch @default 1 */
    resourceId?: number;
  } & Open): Promise<JsonValue>;

  /** Returns structured content along with an output schema for client data validation */
  "get-structured-content"(args: {
    /** Choose city */
    location: "New York" | "Chicago" | "Los Angeles";
  } & Open): Promise<{
    /** Temperature in celsius */
    temperature: number;
    /** Weather conditions description */
    conditions: string;
    /** Humidity percentage */
    humidity: number;
  }>;

  /** Returns the sum of two numbers */
  "get-sum"(args: {
    /** First number */
    a: number;
    /** Second number */
    b: number;
  } & Open): Promise<JsonValue>;

  /** Returns a tiny MCP logo image. */
  "get-tiny-image"(args?: { [key: string]: JsonValue }): Promise<JsonValue>;

  /** Compresses a single file using gzip compression. Depending upon the selected output type, returns either the compressed data as a gzipped resource or a resource link, allowing it to be downloaded in a subsequent request during the current session. */
  "gzip-file-as-resource"(args?: {
    /** Name of the output file @default "README.md.gz" */
    name?: string;
    /** URL or data URI of the file content to compress Format: uri. @default "https://raw.githubusercontent.com/modelcontextprotocol/servers/refs/heads/main/README.md" */
    data?: string;
    /** How the resulting gzipped file should be returned. 'resourceLink' returns a link to a resource that can be read later, 'resource' returns a full resource object. @default "resourceLink" */
    outputType?: "resourceLink" | "resource";
  } & Open): Promise<JsonValue>;

  /** Simulates a deep research operation that gathers, analyzes, and synthesizes information. Demonstrates MCP task-based operations with progress through multiple stages. If 'ambiguous' is true and client supports elicitation, sends an elicitation request for clarification. */
  "simulate-research-query"(args: {
    /** The research topic to investigate */
    topic: string;
    /** Simulate an ambiguous query that requires clarification (triggers input_required status) @default false */
    ambiguous?: boolean;
  } & Open): Promise<JsonValue>;

  /** Toggles simulated, random-leveled logging on or off. */
  "toggle-simulated-logging"(args?: { [key: string]: JsonValue }): Promise<JsonValue>;

  /** Toggles simulated resource subscription updates on or off. */
  "toggle-subscriber-updates"(args?: { [key: string]: JsonValue }): Promise<JsonValue>;

  /** Demonstrates a long running operation with progress updates. */
  "trigger-long-running-operation"(args?: {
    /** Duration of the operation in seconds @default 10 */
    duration?: number;
    /** Number of steps in the operation @default 5 */
    steps?: number;
  } & Open): Promise<JsonValue>;
};
