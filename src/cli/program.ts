import { Command, CommanderError, Option } from 'commander';
import type { AppWithRedirectUris } from '../accounts/app-store.js';
import { MEMBERSHIP_ROLES } from '../accounts/vocabulary.js';
import { parseBudget } from '../cost-budgets/budget-settings.js';
import { DomainError } from '../errors.js';
import { createDemoAccount, describeDemo } from './demo.js';
import { KEY_GRACE_PERIOD_MS, type KeyStatus } from '../oauth/signing-keys/signing-keys.js';
import { SANDBOX_DEFAULT_SCOPES } from '../oauth/tokens/sandbox-tokens.js';
import { contextFields, describeContext, type CliContext } from './context.js';
import type { CliIo } from './output.js';
import { printResult } from './output.js';
import type { CliServices } from './services.js';
import { addAppApiCommands } from './app-api-commands.js';
import { addGraphQLCommands } from './graphql-commands.js';
import { addJobCommands } from './job-commands.js';
import { addWebhookCommands } from './webhook-commands.js';

const collect = (value: string, previous: string[]) => [...previous, value];

/**
 * Builds the admin CLI. Services are resolved lazily so that `--help` and argument errors
 * never open the database.
 */
export function buildProgram(io: CliIo, resolveServices: () => Promise<CliServices>): Command {
  const program = new Command('cli')
    .description('Administer users, employers and partner apps of the hiring partner API.')
    .option('--json', 'print machine-readable JSON')
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })
    .showHelpAfterError('(run with --help for usage)');
  const json = () => Boolean(program.opts<{ json?: boolean }>().json);
  // Opened once, on the first command that needs them; then the run says where it acts.
  let opened: Promise<CliServices> | undefined;
  let context: CliContext | undefined;
  const services = () =>
    (opened ??= resolveServices().then((resolved) => {
      context = resolved.context;
      if (context) io.stderr(`${describeContext(context)}\n`);
      return resolved;
    }));
  // With --json, which database and issuer the run used ride beside the result's own members.
  const print = (data: object, lines: () => string[]): void =>
    printResult(io, json(), context ? { ...data, cli: contextFields(context) } : data, lines);

  const user = program.command('user').description('user accounts');
  user
    .command('create')
    .description('create a user account that can sign in')
    .requiredOption('--email <email>', 'sign-in email address')
    .requiredOption('--password <password>', `password (at least 8 characters)`)
    .option('--name <name>', 'display name')
    .action(async (options: { email: string; password: string; name?: string }) => {
      const created = await (await services()).accounts.createUser(options);
      print({ user: created }, () => [`Created user ${created.email}`, `  id: ${created.id}`]);
    });

  const employer = program.command('employer').description('employer accounts');
  employer
    .command('create')
    .description('create an employer account, optionally with members (as admins)')
    .requiredOption('--name <name>', 'employer name')
    .option('--member <email>', 'email of an existing user to add (repeatable)', collect, [])
    .action(async (options: { name: string; member: string[] }) => {
      const result = await (
        await services()
      ).accounts.createEmployer({
        name: options.name,
        memberEmails: options.member,
      });
      print(result, () => [
        `Created employer ${result.employer.name}`,
        `  id: ${result.employer.id}`,
        ...result.members.map((member) => `  member: ${member.email} (${member.role})`),
      ]);
    });
  employer
    .command('add-member')
    .description('add an existing user to an employer account')
    .requiredOption('--employer <id>', 'employer id')
    .requiredOption('--email <email>', 'email of the user to add')
    .addOption(
      new Option('--role <role>', 'membership role').choices(MEMBERSHIP_ROLES).default('member'),
    )
    .action(async (options: { employer: string; email: string; role: 'admin' | 'member' }) => {
      const result = await (
        await services()
      ).accounts.addMember({
        employerId: options.employer,
        email: options.email,
        role: options.role,
      });
      print(result, () => [
        `Added ${options.email} to ${result.employer.name} as ${options.role}`,
        ...result.members.map((member) => `  member: ${member.email} (${member.role})`),
      ]);
    });

  const app = program.command('app').description('partner apps (OAuth clients)');
  app
    .command('create')
    .description('register a partner app; prints its client secret once')
    .requiredOption('--owner <email>', 'email of the user who owns the app')
    .requiredOption('--name <name>', 'app name shown on the consent page')
    .option('--redirect-uri <url>', 'registered redirect URI (repeatable, at most 5)', collect, [])
    .option('--public', 'a public client (no secret; must use PKCE)')
    .option('--developer-name <name>', 'who publishes the app, shown on the consent page')
    .option('--homepage-url <url>', "the app's homepage (https), linked from the consent page")
    .option('--privacy-policy-url <url>', 'its privacy policy (https), linked from consent')
    .option('--logo-url <url>', 'its logo (https), shown on the consent page')
    .action(
      async (options: {
        owner: string;
        name: string;
        redirectUri: string[];
        public?: boolean;
        developerName?: string;
        homepageUrl?: string;
        privacyPolicyUrl?: string;
        logoUrl?: string;
      }) => {
        const { app: created, clientSecret } = await (
          await services()
        ).apps.createApp({
          ownerEmail: options.owner,
          name: options.name,
          redirectUris: options.redirectUri,
          public: Boolean(options.public),
          publisher: {
            developerName: options.developerName,
            homepageUrl: options.homepageUrl,
            privacyPolicyUrl: options.privacyPolicyUrl,
            logoUrl: options.logoUrl,
          },
        });
        const data = {
          app: describeApp(created),
          client_id: created.client_id,
          client_secret: clientSecret,
        };
        print(data, () => [
          `Created ${created.client_type} app ${created.name}`,
          `  client_id:     ${created.client_id}`,
          ...(clientSecret
            ? [
                `  client_secret: ${clientSecret}`,
                '  (the secret is shown only now; store it safely)',
              ]
            : ['  no client secret: public clients authenticate with PKCE']),
          ...created.redirect_uris.map((uri) => `  redirect_uri:  ${uri}`),
          ...publisherLines(created),
        ]);
      },
    );
  app
    .command('list')
    .description('list partner apps (never their secrets)')
    .action(async () => {
      const apps = await (await services()).apps.listApps();
      print({ apps: apps.map(describeApp) }, () =>
        apps.length
          ? apps.flatMap((item) => [
              `${item.client_id}  ${item.name}  (${item.client_type}, owner ${item.owner_email})`,
              ...item.redirect_uris.map((uri) => `    ${uri}`),
            ])
          : ['No apps registered.'],
      );
    });

  addAppApiCommands(app, services, print);
  app
    .command('budget')
    .description(
      "show or set an app's GraphQL cost budget per window (units, or `default` for GRAPHQL_COST_BUDGET)",
    )
    .argument('<client_id>', 'client_id of the app')
    .argument('[units]', 'cost units per window, or `default`')
    .action(async (clientId: string, units: string | undefined) => {
      const cli = await services();
      const appId = await cli.webhooks.appIdOf(clientId);
      const budget =
        units === undefined
          ? await cli.budgets.budgetOf(appId)
          : await cli.budgets.setBudget(appId, parseBudget(units));
      print({ client_id: clientId, ...budget }, () => [
        `${clientId}: ${budget.units} cost units per ${budget.windowSeconds} s` +
          (budget.own === undefined ? ` (the default, GRAPHQL_COST_BUDGET)` : ' (its own budget)'),
      ]);
    });

  const keys = program.command('keys').description('token signing keys');
  keys
    .command('rotate')
    .description(
      'add new signing keys, published now and signing after SIGNING_KEY_ACTIVATION_DELAY_SECONDS; ' +
        'old keys keep verifying until their tokens expire',
    )
    .option(
      '--immediately',
      'sign with the new keys at once (a compromised key); clients holding an older copy of ' +
        'the JWKS may reject new tokens for up to 30 s',
    )
    .action(async (options: { immediately?: boolean }) => {
      const { signingKeys, audit } = await services();
      await signingKeys.ensureActiveKeys();
      const immediate = Boolean(options.immediately);
      const rotated = await signingKeys.rotate({ immediately: immediate });
      await audit.record({ type: 'signing_key.rotated', details: { keys: rotated, immediate } });
      print({ rotated, immediate }, () => [
        ...rotated.map(
          (key) =>
            `Rotated ${key.alg}: new kid ${key.kid}${key.replaced ? ` (replaces ${key.replaced})` : ''}`,
        ),
        ...describeActivation(rotated[0]!.activates_at, immediate),
      ]);
    });
  keys
    .command('list')
    .description('list the published signing keys (public halves only) and when each signs')
    .action(async () => {
      const { signingKeys } = await services();
      await signingKeys.ensureActiveKeys();
      const published = await signingKeys.list();
      print({ keys: published }, () => published.map(describeKey));
    });

  const token = program.command('token').description('tokens for automated tests');
  token
    .command('issue')
    .description(
      'print the token response (access, ID and, with offline_access, refresh token) of a user ' +
        "who consented to an app, without a browser: for a partner's CI. Audited as a consent; " +
        'refused when the server of this database (or this shell) runs with ' +
        'NODE_ENV=production, unless its CLI_SANDBOX_TOKENS=enabled',
    )
    .requiredOption('--app <client_id>', 'client_id of the app the tokens are for')
    .requiredOption('--user <email>', 'email of the user who consents')
    .option('--employer <id>', 'an employer of the user: the access token acts for it')
    .option(
      '--scope <scopes...>',
      `scopes to grant (space-separated or repeated); default: ${SANDBOX_DEFAULT_SCOPES.join(' ')}, ` +
        'plus offline_access when the app allows the refresh_token grant',
    )
    .action(async (options: { app: string; user: string; employer?: string; scope?: string[] }) => {
      const issued = await (
        await services()
      ).sandboxTokens.issue({
        clientId: options.app,
        userEmail: options.user,
        employerId: options.employer,
        scope: options.scope?.join(' '),
      });
      // The token endpoint's answer either way, so scripts read it the same with or without --json.
      print(issued, () => [JSON.stringify(issued, null, 2)]);
    });

  addWebhookCommands(program, services, print);
  addJobCommands(program, services, print, io);
  addGraphQLCommands(program, services, print);

  const interviews = program.command('interviews').description('virtual interview events');
  interviews
    .command('sweep')
    .description(
      'store the time-driven transitions that are due: end events whose end time has passed, ' +
        'archive events that ended ARCHIVE_AFTER_DAYS ago, end interviews whose room stayed ' +
        'empty past ROOM_EMPTY_GRACE_SECONDS (safe beside running servers)',
    )
    .action(async () => {
      const { sweptAt, ended, archived, abandonedEnded } = await (
        await services()
      ).sweepInterviews();
      printResult(
        io,
        json(),
        { swept_at: sweptAt, ended, archived, abandoned_interviews_ended: abandonedEnded },
        () => [
          `Ended ${plural(ended, 'event')}, archived ${plural(archived, 'event')}, ` +
            `ended ${plural(abandonedEnded, 'abandoned interview')}.`,
        ],
      );
    });

  program
    .command('demo')
    .description(
      'create a demo user (new email each run), two employers, a confidential app with the ' +
        'Jobs APIs enabled, an employer and three job postings, and print ready-to-run curl ' +
        'commands for an employer token and appinfo',
    )
    .action(async () => {
      const { accounts, apps, apiAccess, jobs, urls } = await services();
      const demo = await createDemoAccount({ accounts, apps, apiAccess, jobs }, urls);
      print(demo, () => describeDemo(demo, urls));
    });

  return program;
}

function describeActivation(activatesAt: number, immediate: boolean): string[] {
  const retirement = `The previous keys stay published, verifying the tokens they signed, until ${iso(activatesAt + KEY_GRACE_PERIOD_MS)}.`;
  if (immediate) {
    return [
      'The new keys sign now. Clients holding a copy of the JWKS from before this rotation may',
      'reject new tokens until they refetch it (jose and openid-client wait up to 30 s);',
      'other service processes switch to the new keys within 30 s.',
      retirement,
    ];
  }
  return [
    `The new keys are published now and start signing at ${iso(activatesAt)};`,
    'until then the previous keys sign.',
    retirement,
  ];
}

function describeKey(key: KeyStatus): string {
  const when = {
    pending: `pending, starts signing at ${iso(key.activates_at)}`,
    active: `active since ${iso(key.activates_at)}${key.superseded_at ? `, until ${iso(key.superseded_at)}` : ''}`,
    superseded: `superseded at ${iso(key.superseded_at!)}, leaves the JWKS at ${iso(key.retires_at!)}`,
  }[key.state];
  return `${key.alg}  ${key.kid}  ${when}`;
}

function iso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function describeApp(app: AppWithRedirectUris) {
  return {
    id: app.id,
    client_id: app.client_id,
    name: app.name,
    client_type: app.client_type,
    owner_email: app.owner_email,
    redirect_uris: app.redirect_uris,
    developer_name: app.developer_name,
    homepage_url: app.homepage_url,
    privacy_policy_url: app.privacy_policy_url,
    logo_url: app.logo_url,
    created_at: app.created_at,
  };
}

function publisherLines(app: AppWithRedirectUris): string[] {
  return (
    [
      ['developer_name', app.developer_name],
      ['homepage_url', app.homepage_url],
      ['privacy_policy_url', app.privacy_policy_url],
      ['logo_url', app.logo_url],
    ] as const
  ).flatMap(([label, value]) => (value ? [`  ${`${label}:`.padEnd(20)}${value}`] : []));
}

/**
 * Runs one CLI invocation and returns its exit code: 0 on success, 1 when the input breaks a
 * rule (nothing written), 2 on a usage error. Unexpected failures also return 1 with their
 * message, never a stack trace.
 */
export async function runProgram(
  argv: string[],
  io: CliIo,
  services: () => Promise<CliServices>,
): Promise<number> {
  const program = buildProgram(io, services);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version output are "errors" to commander; everything else is bad usage.
      return error.exitCode === 0 ? 0 : 2;
    }
    if (error instanceof DomainError) {
      io.stderr(`error: ${error.message}\n`);
      return 1;
    }
    io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
