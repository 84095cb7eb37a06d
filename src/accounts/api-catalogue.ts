/**
 * What accounts know of an API behind the GraphQL gateway: its name, how the console and the CLI
 * call it, and whether an app may use it until its owner says otherwise. The composition root
 * hands the list in (src/apis.ts), so accounts depend on no API and not on the gateway.
 */
export interface KnownApi {
  readonly name: string;
  readonly title: string;
  readonly enabledByDefault: boolean;
}
