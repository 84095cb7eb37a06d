import type { Resolvers } from '../../generated/graphql.js';
import type { GatewayContext } from './context.js';
import type { CommonResolvedType } from './common-resolvers.js';

/*
 * What an API behind the gateway may know of it: the API modules (src/interviews, and the next
 * ones) import src/graphql through this file only (.dependency-cruiser.cjs checks it), and the
 * gateway imports none of them: the composition root hands it their registrations.
 */

export type { GatewayContext, Principal } from './context.js';
export type { OffsetDateTime } from './scalars/date-time.js';
// The DateTime scalar's reading, for an API that takes a date-time in a String (its own message).
export { parseOffsetDateTime } from './scalars/date-time.js';
// What the rolling cost budget (src/cost-budgets) provides the gateway with.
export type { Admission, BudgetStatus, CostAdmission } from './budget/cost-budget.js';

/**
 * Resolvers of every type of the merged schema over the given context, except those the gateway
 * resolves itself (the custom scalars and PageInfo, from schema/common.graphql). Every field is
 * required (codegen.ts, avoidOptionals), so a field added to an SDL file is a compile error until
 * an API resolves it.
 */
export type SchemaResolvers<Context = GatewayContext> = Omit<
  Resolvers<Context>,
  CommonResolvedType
>;

/**
 * What one API's resolver map may hold: the types its SDL file defines, and of a type it extends
 * (Query, Mutation) the fields it adds. An API types its map with `satisfies ApiResolvers<...>`,
 * so that the composition root sees exactly what it resolves.
 */
export type ApiResolvers<Context> = {
  [Type in keyof SchemaResolvers<Context>]?: Partial<SchemaResolvers<Context>[Type]>;
};

/**
 * Who may use an API (DESIGN §9): a field of an API the caller may not use answers null with
 * `FORBIDDEN` and `extensions.api`, and the rest of the document still runs
 * (src/graphql/access/).
 */
export interface ApiAccess {
  /** How the console, the CLI and refusals name it ("Interview API"). */
  readonly title: string;
  /** Scopes the access token must carry, every one of them, for any of its fields. */
  readonly scopes: readonly string[];
  /**
   * Whether an app may use it until its owner disables it (console, CLI); false for an API an
   * owner has to enable first.
   */
  readonly enabledByDefault: boolean;
}

/**
 * One API behind the gateway, as its module registers it (src/apis.ts lists them). Its SDL is
 * `schema/<name>.graphql`; composeGraphQL refuses to start when the SDL files, the names and the
 * resolvers do not match one to one (src/graphql/api-registry.ts).
 */
export interface GraphQLApi<Part extends object = object, Resolved extends object = object> {
  /** The API's name: its SDL file is schema/<name>.graphql. */
  readonly name: string;
  /** Who may use it: the scopes it needs and whether apps may by default. */
  readonly access: ApiAccess;
  /** A resolver for every field its SDL file defines or adds. */
  readonly resolvers: Resolved;
  /**
   * Root fields (`Mutation.field`) whose requests may be larger than BODY_LIMIT_BYTES, up to
   * the gateway's large-body limit (Job Sync's batches of 100 postings).
   */
  readonly largeBodyRootFields?: readonly string[];
  /** Its part of one request's context (its loaders and services), next to the gateway's. */
  createContext(request: GatewayContext): Part;
}

type UnionToIntersection<Union> = (
  Union extends unknown ? (argument: Union) => void : never
) extends (argument: infer Intersection) => void
  ? Intersection
  : never;

/** The resolver maps of the given APIs, merged type by type. */
export type MergedResolvers<Apis extends readonly GraphQLApi[]> = UnionToIntersection<
  Apis[number]['resolvers']
>;

/**
 * Compiles only when the given resolver maps resolve every type and field of the merged schema:
 * tsc names what is missing (`MergedResolvers<typeof apis>` does not satisfy the constraint).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each API's own context
export type ResolvingEverything<Merged extends SchemaResolvers<any>> = Merged;
