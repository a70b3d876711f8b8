import definitions from './content-types.json';

/**
 * The CMS content types the portal reads, once for the server's allow-list, the CMS's provisioning (which
 * `require`s the JSON file) and the browser tests. Each entry names its Strapi uid, whether it is a single type
 * (no document id), its public fields with their types (filter values are checked against them) and its
 * relations (another content type, or a component), which are the only names `populate` accepts.
 */
export type ContentFieldType = 'string' | 'integer' | 'boolean' | 'datetime' | 'json';

export interface ContentSchema {
  fields: Readonly<Record<string, ContentFieldType>>;
  /** Relation or component name → a key of `contentTypes` or of `contentComponents`. */
  relations: Readonly<Record<string, string>>;
}

export interface ContentTypeDefinition extends ContentSchema {
  /** Strapi's uid, e.g. `api::topic.topic`. */
  uid: string;
  single: boolean;
}

export type ContentTypeName = keyof typeof definitions.types;

export const contentTypes = definitions.types as Readonly<Record<ContentTypeName, ContentTypeDefinition>>;
export const contentTypeNames = Object.keys(definitions.types) as ContentTypeName[];
export const contentComponents = definitions.components as Readonly<Record<string, ContentSchema>>;
/** Fields every content type has besides its own (Strapi adds them). */
export const contentSystemFields = definitions.systemFields as Readonly<Record<string, ContentFieldType>>;
