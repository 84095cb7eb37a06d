import {
  buildASTSchema,
  concatAST,
  GraphQLError,
  GraphQLSchema,
  Kind,
  parse,
  printIntrospectionSchema,
  printType,
  specifiedScalarTypes,
  type DefinitionNode,
  type DirectiveDefinitionNode,
  type DocumentNode,
  type TypeDefinitionNode,
  type TypeExtensionNode,
} from 'graphql';
import { anchors } from './anchors.js';

/** What the reference documents: a type, an extension of one, or a directive. */
export type Definition = TypeDefinitionNode | TypeExtensionNode | DirectiveDefinitionNode;

/** One SDL file: the definitions of one API (or the shared ones), in the file's order. */
export interface ReferenceModule {
  /** The module's name: the file's name without `.graphql`, which is the API's name. */
  name: string;
  /** The section's id in the page (not a GraphQL name, so no schema coordinate takes it). */
  id: string;
  title: string;
  /** Where its SDL is, for readers of the repository; null for GraphQL's built-ins. */
  source: string | null;
  /** The file's opening comment block, which says what the API is. */
  intro: string | null;
  groups: DefinitionGroup[];
}

/** Definitions under one of the file's banner comments (`# ----` / `# Title` / `# ----`). */
export interface DefinitionGroup {
  title: string;
  definitions: Definition[];
}

/** An SDL file as read: its module name, where it is, and its text. */
export interface SdlSource {
  name: string;
  path: string;
  text: string;
}

/** Everything the page is made from, with what it needs to link one name to another. */
export interface ReferenceCatalog {
  /** The SDL modules in the order given, then GraphQL's built-in scalars and directives. */
  modules: ReferenceModule[];
  /** The merged schema: the SDL must build, and it says which types implement an interface. */
  schema: GraphQLSchema;
  /** Every id the page gives a type, field, argument, enum value or directive. */
  anchors: Set<string>;
  /** Root operation fields by name (`createVirtualInterviewEvent` → `Mutation.createVirtualInterviewEvent`). */
  rootFields: Map<string, string>;
  /** The modules that extend a type defined elsewhere, and the fields each adds, by type name. */
  extensions: Map<string, { module: ReferenceModule; fields: string[] }[]>;
}

const COMMON = 'common';

/**
 * Parses every SDL module, checks that their merge builds (so a broken file fails the build, not
 * the page), and adds GraphQL's built-ins as a last module: the page links `String` and
 * `@deprecated` like any other name.
 */
export function buildCatalog(sources: readonly SdlSource[]): ReferenceCatalog {
  const documents = sources.map((source) => parseSource(source));
  const schema = buildASTSchema(concatAST(documents));
  const modules = sources.map((source, index) => sdlModule(source, documents[index]!));
  modules.push(builtInModule());

  const roots = new Set(
    [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].flatMap(
      (type) => (type ? [type.name] : []),
    ),
  );
  const catalog: ReferenceCatalog = {
    modules,
    schema,
    anchors: new Set(),
    rootFields: new Map(),
    extensions: new Map(),
  };
  for (const module of modules) {
    for (const definition of definitionsOf(module)) {
      for (const id of anchors.of(definition)) catalog.anchors.add(id);
      if (isExtension(definition)) {
        const fields = memberNames(definition);
        const known = catalog.extensions.get(definition.name.value) ?? [];
        catalog.extensions.set(definition.name.value, [...known, { module, fields }]);
      }
      if (definition.kind !== Kind.DIRECTIVE_DEFINITION && roots.has(definition.name.value)) {
        for (const field of memberNames(definition)) {
          catalog.rootFields.set(field, anchors.member(definition.name.value, field));
        }
      }
    }
  }
  return catalog;
}

export function definitionsOf(module: ReferenceModule): Definition[] {
  return module.groups.flatMap((group) => group.definitions);
}

export function isExtension(definition: Definition): definition is TypeExtensionNode {
  return definition.kind.endsWith('Extension');
}

/** The names of a type's fields, input fields or enum values. */
export function memberNames(definition: Definition): string[] {
  if ('fields' in definition) return (definition.fields ?? []).map((field) => field.name.value);
  if ('values' in definition) return (definition.values ?? []).map((value) => value.name.value);
  return [];
}

function parseSource(source: SdlSource): DocumentNode {
  try {
    return parse(source.text);
  } catch (error) {
    if (error instanceof GraphQLError) {
      throw new Error(`${source.path}: ${error.message}`, { cause: error });
    }
    throw error;
  }
}

function sdlModule(source: SdlSource, document: DocumentNode): ReferenceModule {
  const banners = bannersOf(source.text);
  const definitions = document.definitions.filter(isDocumented);
  const firstLine = definitions[0]?.loc?.startToken.line ?? Infinity;
  const intro = banners[0] && banners[0].line < firstLine ? banners.shift()! : null;

  // Each definition belongs under the last banner above it; those above every banner form a
  // group of their own.
  const groups: (DefinitionGroup & { banner: number })[] = [];
  for (const definition of definitions) {
    const line = definition.loc?.startToken.line ?? 0;
    const banner = banners.findLastIndex((candidate) => candidate.line < line);
    const last = groups.at(-1);
    if (last && last.banner === banner) last.definitions.push(definition);
    else groups.push({ banner, title: banners[banner]?.text ?? '', definitions: [definition] });
  }
  for (const group of groups) {
    group.title = group.title.replace(/\s+/g, ' ') || leadingGroupTitle(group.definitions);
  }

  return {
    name: source.name,
    id: `api-${source.name}`,
    title: moduleTitle(source.name),
    source: source.path,
    intro: intro?.text ?? null,
    groups: groups.map(({ title, definitions }) => ({ title, definitions })),
  };
}

function isDocumented(definition: DefinitionNode): definition is Definition {
  return (
    definition.kind === Kind.DIRECTIVE_DEFINITION ||
    definition.kind.endsWith('TypeDefinition') ||
    definition.kind.endsWith('TypeExtension')
  );
}

/** Definitions before the file's first banner: the operations an API adds, usually. */
function leadingGroupTitle(definitions: Definition[]): string {
  const operations = definitions.every(
    (definition) =>
      definition.kind !== Kind.DIRECTIVE_DEFINITION &&
      ['Query', 'Mutation', 'Subscription'].includes(definition.name.value),
  );
  return operations ? 'Operations' : 'Definitions';
}

function moduleTitle(name: string): string {
  if (name === COMMON) return 'Shared by every API';
  const words = name.replace(/[-_]+/g, ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} API`;
}

const DASHES = /^#\s*-{5,}\s*$/;

/** The file's banner comments: a comment block between two lines of dashes. */
function bannersOf(text: string): { line: number; text: string }[] {
  const lines = text.split(/\r?\n/);
  const banners: { line: number; text: string }[] = [];
  for (let start = 0; start < lines.length; start++) {
    if (!DASHES.test(lines[start]!)) continue;
    let end = start + 1;
    while (end < lines.length && lines[end]!.startsWith('#') && !DASHES.test(lines[end]!)) end++;
    if (end < lines.length && DASHES.test(lines[end]!) && end > start + 1) {
      const comment = lines.slice(start + 1, end).map((line) => line.replace(/^#\s?/, ''));
      banners.push({ line: start + 1, text: comment.join('\n').trim() });
      start = end;
    }
  }
  return banners;
}

/** GraphQL's own scalars and directives, as SDL with the specification's descriptions. */
function builtInModule(): ReferenceModule {
  const scalars = specifiedScalarTypes.map((type) => printType(type)).join('\n\n');
  const directives = parse(printIntrospectionSchema(new GraphQLSchema({}))).definitions.filter(
    (definition) => definition.kind === Kind.DIRECTIVE_DEFINITION,
  );
  const types = parse(scalars).definitions.filter(isDocumented);
  return {
    name: 'graphql',
    id: 'graphql-built-ins',
    title: 'Built into GraphQL',
    source: null,
    intro:
      'The scalars and directives every GraphQL server has, as the GraphQL specification defines them.',
    groups: [
      { title: 'Scalars', definitions: types },
      { title: 'Directives', definitions: directives as DirectiveDefinitionNode[] },
    ],
  };
}
