/** Any JSON value. */
type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** An object & Open may hold keys it does not list. */
type Open = { [key: string]: unknown } & { [K in keyof Object]?: unknown };

declare namespace ToolTypes {
  export type OpenNodesResult = { entities: Entities; relations: CreateRelationsResultRelations };

  export type Relations = ({
    /** The name of the entity where the relation starts */
    from: string;
    /** The name of the entity where the relation ends */
    to: string;
    /** The type of the relation */
    relationType: string;
  } & Open)[];

  export type CreateRelationsResultRelations = {
    /** The name of the entity where the relation starts */
    from: string;
    /** The name of the entity where the relation ends */
    to: string;
    /** The type of the relation */
    relationType: string;
  }[];

  export type Entities = {
    /** The name of the entity */
    name: string;
    /** The type of the entity */
    entityType: string;
    /** An array of observation contents associated with the entity */
    observations: string[];
  }[];
}

/** A failed tool call rejects with this error: toolName is the tool, code a stable code such as INVALID_ARGS, TOOL_TIMEOUT or DENIED. */
declare class ToolCallError extends Error { readonly toolName: string; readonly code: string }

/** The tools, as async functions. */
declare const tools: {
  /** Add new observations to existing entities in the knowledge graph */
  add_observations(args: {
    observations: ({
      /** The name of the entity to add the observations to */
      entityName: string;
      /** An array of observation contents to add */
      contents: string[];
    } & Open)[];
  } & Open): Promise<{ results: { entityName: string; addedObservations: string[] }[] }>;

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
  } & Open): Promise<{ entities: ToolTypes.Entities }>;

  /** Create multiple new relations between entities in the knowledge graph. Relations should be in active voice */
  create_relations(args: {
    relations: ToolTypes.Relations;
  } & Open): Promise<{ relations: ToolTypes.CreateRelationsResultRelations }>;

  /** Delete multiple entities and their associated relations from the knowledge graph */
  delete_entities(args: {
    /** An array of entity names to delete */
    entityNames: string[];
  } & Open): Promise<{ success: boolean; message: string }>;

  /** Delete specific observations from entities in the knowledge graph */
  delete_observations(args: {
    deletions: ({
      /** The name of the entity containing the observations */
      entityName: string;
      /** An array of observations to delete */
      observations: string[];
    } & Open)[];
  } & Open): Promise<{ success: boolean; message: string }>;

  /** Delete multiple relations from the knowledge graph */
  delete_relations(args: {
    /** An array of relations to delete */
    relations: ToolTypes.Relations;
  } & Open): Promise<{ success: boolean; message: string }>;

  /** Open specific nodes in the knowledge graph by their names */
  open_nodes(args: {
    /** An array of entity names to retrieve */
    names: string[];
  } & Open): Promise<ToolTypes.OpenNodesResult>;

  /** Read the entire knowledge graph */
  read_graph(args?: { [key: string]: JsonValue }): Promise<ToolTypes.OpenNodesResult>;

  /** Search for nodes in the knowledge graph based on a query */
  search_nodes(args: {
    /** The search query to match against entity names, types, and observation content */
    query: string;
  } & Open): Promise<ToolTypes.OpenNodesResult>;
};
