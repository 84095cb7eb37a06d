import type { Command } from 'commander';
import type { AppApiAccess } from '../accounts/api-access-service.js';
import type { CliServices } from './services.js';

type Print = (data: object, lines: () => string[]) => void;

/**
 * `app apis|enable-api|disable-api`: which APIs behind the GraphQL gateway an app may use, by
 * its client id, through the same service as the console (audited, without an actor). Running
 * servers count an API enabled here on the very next request; one disabled here once the
 * caller's token is verified again (TOKEN_VERIFICATION_CACHE_MS).
 */
export function addAppApiCommands(
  app: Command,
  services: () => Promise<CliServices>,
  print: Print,
): void {
  app
    .command('apis')
    .description('list the APIs behind /graphql and whether the app may use each')
    .argument('<client-id>', 'client_id of the app')
    .action(async (clientId: string) => {
      const { apiAccess } = await services();
      const target = await apiAccess.appByClientId(clientId);
      const apis = await apiAccess.listFor(target);
      print({ client_id: target.client_id, apis: apis.map(describe) }, () => [
        `APIs of app ${target.name} (${target.client_id}):`,
        ...apis.map(line),
      ]);
    });

  for (const [name, enabled] of [
    ['enable-api', true],
    ['disable-api', false],
  ] as const) {
    app
      .command(name)
      .description(`${enabled ? 'enable' : 'disable'} one API behind /graphql for the app`)
      .argument('<client-id>', 'client_id of the app')
      .argument('<api>', 'the API, by name (see app apis)')
      .action(async (clientId: string, api: string) => {
        const { apiAccess } = await services();
        const target = await apiAccess.appByClientId(clientId);
        const changed = await apiAccess.setEnabled(target, api, enabled);
        const now = (await apiAccess.listFor(target)).find((item) => item.api === api)!;
        print({ client_id: target.client_id, changed, api: describe(now) }, () => [
          changed
            ? `${enabled ? 'Enabled' : 'Disabled'} the ${now.title} (${api}) for app ${target.name}`
            : `The ${now.title} (${api}) was already ${enabled ? 'enabled' : 'disabled'} for app ${target.name}`,
        ]);
      });
  }
}

function describe(api: AppApiAccess) {
  return {
    api: api.api,
    title: api.title,
    enabled: api.enabled,
    by_default: api.byDefault,
    enabled_by_default: api.enabledByDefault,
    changed_at: api.changed_at,
  };
}

function line(api: AppApiAccess): string {
  const state = api.enabled ? 'enabled ' : 'disabled';
  const why = api.byDefault ? '(default)' : `(since ${new Date(api.changed_at!).toISOString()})`;
  return `  ${api.api.padEnd(12)}${state}  ${api.title} ${why}`;
}
