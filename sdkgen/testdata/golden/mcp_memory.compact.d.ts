/** Any JSON value. */
type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** An object & Open may hold keys it does not list. */
type Open = { [key: string]: unknown } & { [K in keyof Object]?: unknown };

/** A failed tool call rejects with this error. */
declare class ToolCallError extends Error {
  /** Name of the tool that failed. */
  readonly toolName: string;
  /** Stable error code, such as INVALID_ARGS, TOOL_TIMEOUT or DENIED. */
  readonly code: string;
}

/**
 * The tools, as async functions. Call a tool whose name is not an identifier
 * with brackets: tools["my-tool"](args).
 */
declare const tools: {
  /** Add new observations to existing entities in the knowledge graph */
  add_observations(args: {
    observations: ({
      /** The name of the entity to add the observations to */
      entityName: string;
      /** An array of observation contents to add */
      contents: string[];
    } & Open)[];
  } & Open): Promise<{
    results: {
      entityName: string;
      addedObservations: string[];
    }[];
  }>;

  /** Create multiple new entities in the knowledge graph */
  create_entities(args: {
    entities: ({
      /** The name of the entity */
      name: string;
      /** The type of the entity */
      entityType: string;
      /** An array of observation contents associated with the entity */
      observations: string[];
    } & Open)[];
  } & Open): Promise<{
    entities: {
      /** The name of the entity */
      name: string;
      /** The type of the entity */
      entityType: string;
      /** An array of observation contents associated with the entity */
      observations: string[];
    }[];
  }>;

  /** Create multiple new relations between entities in the knowledge graph. Relations should be in active voice */
  create_relations(args: {
    relations: ({
      /** The name of the entity where the relation starts */
      from: string;
      /** The name of the entity where the relation ends */
      to: string;
      /** The type of the relation */
      relationType: string;
    } & Open)[];
  } & Open): Promise<{
    relations: {
      /** The name of the entity where the relation starts */
      from: string;
      /** The name of the entity where the relation ends */
      to: string;
      /** The type of the relation */
      relationType: string;
    }[];
  }>;

  /** Delete multiple entities and their associated relations from the knowledge graph */
  delete_entities(args: {
    /** An array of entity names to delete */
    entityNames: string[];
  } & Open): Promise<{
    success: boolean;
    message: string;
  }>;

  /** Delete specific observations from entities in the knowledge graph */
  delete_observations(args: {
    deletions: ({
      /** The name of the entity containing the observations */
      entityName: string;
      /** An array of observations to delete */
      observations: string[];
    } & Open)[];
  } & Open): Promise<{
    success: boolean;
    message: string;
  }>;

  /** Delete multiple relations from the knowledge graph */
  delete_relations(args: {
    /** An array of relations to delete */
    relations: ({
      /** The name of the entity where the relation starts */
      from: string;
      /** The name of the entity where the relation ends */
      to: string;
      /** The type of the relation */
      relationType: string;
    } & Open)[];
  } & Open): Promise<{
    success: boolean;
    message: string;
  }>;

  /** Open specific nodes in the knowledge graph by their names */
  open_nodes(args: {
    /** An array of entity names to retrieve */
    names: string[];
  } & Open): Promise<{
    entities: {
      /** The name of the entity */
      name: string;
      /** The type of the entity */
      entityType: string;
      /** An array of observation contents associated with the entity */
      observations: string[];
    }[];
    relations: {
      /** The name of the entity where the relation starts */
      from: string;
      /** The name of the entity where the relation ends */
      to: string;
      /** The type of the relation */
      relationType: string;
    }[];
  }>;

  /** Read the entire knowledge graph */
  read_graph(args?: {
    [key: string]: JsonValue;
  }): Promise<{
    entities: {
      /** The name of the entity */
      name: string;
      /** The type of the entity */
      entityType: string;
      /** An array of observation contents associated with the entity */
      observations: string[];
    }[];
    relations: {
      /** The name of the entity where the relation starts */
      from: string;
      /** The name of the entity where the relation ends */
      to: string;
      /** The type of the relation */
      relationType: string;
    }[];
  }>;

  /** Search for nodes in the knowledge graph based on a query */
  search_nodes(args: {
    /** The search query to match against entity names, types, and observation content */
    query: string;
  } & Open): Promise<{
    entities: {
      /** The name of the entity */
      name: string;
      /** The type of the entity */
      entityType: string;
      /** An array of observation contents associated with the entity */
      observations: string[];
    }[];
    relations: {
      /** The name of the entity where the relation starts */
      from: string;
      /** The name of the entity where the relation ends */
      to: string;
      /** The type of the relation */
      relationType: string;
    }[];
  }>;
};
