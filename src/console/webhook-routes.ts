import express, { Router, type Request, type Response } from 'express';
import type { AppRow } from '../db/rows.js';
import { InvalidFields, NotFoundError, ValidationError, type FieldProblem } from '../errors.js';
import { originOf } from '../http/request-origin.js';
import type { EndpointView, WebhookActor } from '../webhooks/endpoint-service.js';
import type { ConsoleGuards, SignedIn } from './console-guards.js';
import type { ConsoleDependencies } from './dependencies.js';
import { field, sentence } from './forms.js';
import type { Notice } from './notices.js';
import { CONSOLE_PATHS, appPaths } from './paths.js';
import { WebhookPages, type EndpointValues } from './webhook-pages.js';

/** Deliveries shown per page of an endpoint's log. */
const DELIVERY_PAGE_SIZE = 25;

/**
 * An app's Webhooks tab: its endpoints and the add form, one endpoint's page (its secret once
 * after creation or rotation, the edit form, test, rotate, enable or disable, delete, the
 * delivery log and "recover failed deliveries since"), and one delivery with its attempts and
 * Resend. Every change goes through WebhookEndpointService, which audits it with the signed-in
 * owner; another user's app, and another app's endpoint or delivery, answer 404.
 */
export function webhookRouter(deps: ConsoleDependencies, guards: ConsoleGuards): Router {
  const { webhooks, notices, flash } = deps;
  const pages = new WebhookPages();
  // The endpoint form has a checkbox per event type and per employer: more than the usual 20.
  const endpointForm = express.urlencoded({
    extended: false,
    limit: deps.config.bodyLimitBytes,
    parameterLimit: 20 + 2 * deps.config.webhooks.employersPerEndpoint,
  });
  const router = Router();

  async function owned(req: Request, res: Response, isForm: boolean) {
    const current = isForm ? await guards.signedInForm(req, res) : await guards.signedIn(req, res);
    if (!current) return undefined;
    const app = await guards.ownedApp(res, current, String(req.params.clientId));
    return app && { current, app };
  }

  /** The owner, the app and the endpoint in the path; undefined once a 404 has been sent. */
  async function ownedEndpoint(req: Request, res: Response, isForm: boolean) {
    const found = await owned(req, res, isForm);
    if (!found) return undefined;
    try {
      const endpoint = await webhooks.get(found.app.id, String(req.params.endpointId));
      return { ...found, endpoint };
    } catch (error) {
      if (error instanceof NotFoundError) return guards.notFound(res, found.current.viewer);
      throw error;
    }
  }

  function actor(req: Request, current: SignedIn): WebhookActor {
    return { userId: current.session.userId, ...originOf(req) };
  }

  /** The webhook secret waiting for this browser's one view of the endpoint. */
  const flashKey = (endpointId: string) => `webhook:${endpointId}`;

  async function showList(
    res: Response,
    current: SignedIn,
    app: AppRow,
    attempt?: { values: EndpointValues; problems: readonly FieldProblem[] },
  ) {
    const [endpoints, employers] = await Promise.all([
      webhooks.list(app.id),
      deps.accounts.membershipsOf(current.session.userId),
    ]);
    pages.list(res, current.viewer, {
      app,
      endpoints,
      employers,
      maxEndpoints: deps.config.webhooks.endpointsPerApp,
      ...attempt,
    });
  }

  async function showEndpoint(
    req: Request,
    res: Response,
    found: { current: SignedIn; app: AppRow; endpoint: EndpointView },
    extra: {
      secret?: string;
      values?: EndpointValues;
      problems?: readonly FieldProblem[];
      actionError?: string;
    } = {},
  ) {
    const { current, app, endpoint } = found;
    const after = typeof req.query.after === 'string' ? req.query.after : null;
    const [employers, deliveries] = await Promise.all([
      deps.accounts.membershipsOf(current.session.userId),
      webhooks
        .deliveries(app.id, endpoint.id, { first: DELIVERY_PAGE_SIZE, after })
        .catch((error: unknown) => {
          // A cursor from nowhere shows the first page.
          if (error instanceof ValidationError) {
            return webhooks.deliveries(app.id, endpoint.id, { first: DELIVERY_PAGE_SIZE });
          }
          throw error;
        }),
    ]);
    pages.endpoint(res, current.viewer, {
      app,
      endpoint,
      employers,
      deliveries,
      now: deps.clock.now(),
      ...extra,
    });
  }

  router.get(CONSOLE_PATHS.app.webhooks, async (req, res) => {
    const found = await owned(req, res, false);
    if (found) await showList(res, found.current, found.app);
  });

  router.post(CONSOLE_PATHS.app.webhooks, endpointForm, async (req, res) => {
    const found = await owned(req, res, true);
    if (!found) return;
    const { current, app } = found;
    const values = endpointValues(req);
    try {
      const created = await webhooks.create(app.id, values, actor(req, current));
      await flash.put(current.session.idHash, flashKey(created.endpoint.id), created.secret);
      const detail = appPaths(app.client_id).webhook(created.endpoint.id).detail;
      notices.redirect(res, detail, 'webhook-created');
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      await showList(res, current, app, { values, problems: problemsOf(error) });
    }
  });

  router.get(CONSOLE_PATHS.app.webhook, async (req, res) => {
    const found = await ownedEndpoint(req, res, false);
    if (!found) return;
    const secret = await flash.take(found.current.session.idHash, flashKey(found.endpoint.id));
    await showEndpoint(req, res, found, { secret });
  });

  router.post(CONSOLE_PATHS.app.webhook, endpointForm, async (req, res) => {
    const found = await ownedEndpoint(req, res, true);
    if (!found) return;
    const { current, app, endpoint } = found;
    const values = endpointValues(req);
    try {
      await webhooks.update(app.id, endpoint.id, values, actor(req, current));
      notices.redirect(res, appPaths(app.client_id).webhook(endpoint.id).detail, 'webhook-updated');
    } catch (error) {
      if (error instanceof NotFoundError) return guards.notFound(res, current.viewer);
      if (!(error instanceof ValidationError)) throw error;
      await showEndpoint(req, res, found, { values, problems: problemsOf(error) });
    }
  });

  /** One button on the endpoint's page: runs it, then back to the page with its notice. */
  function endpointAction(
    path: string,
    done: Notice,
    action: (
      appId: string,
      endpointId: string,
      actor: WebhookActor,
      req: Request,
    ) => Promise<unknown>,
    after: (
      found: { current: SignedIn; endpoint: EndpointView },
      result: unknown,
    ) => Promise<void> = async () => {},
  ) {
    router.post(path, guards.form, async (req, res) => {
      const found = await ownedEndpoint(req, res, true);
      if (!found) return;
      const { current, app, endpoint } = found;
      try {
        const result = await action(app.id, endpoint.id, actor(req, current), req);
        await after(found, result);
        notices.redirect(res, appPaths(app.client_id).webhook(endpoint.id).detail, done);
      } catch (error) {
        if (error instanceof NotFoundError) return guards.notFound(res, current.viewer);
        if (!(error instanceof ValidationError)) throw error;
        await showEndpoint(req, res, found, { actionError: sentence(error.message) });
      }
    });
  }

  endpointAction(
    CONSOLE_PATHS.app.webhookRotate,
    'webhook-rotated',
    (appId, endpointId, who) => webhooks.rotateSecret(appId, endpointId, who),
    async ({ current, endpoint }, rotated) => {
      const { secret } = rotated as { secret: string };
      await flash.put(current.session.idHash, flashKey(endpoint.id), secret);
    },
  );
  endpointAction(CONSOLE_PATHS.app.webhookTest, 'webhook-test-sent', (appId, id, who) =>
    webhooks.sendTest(appId, id, who),
  );
  endpointAction(CONSOLE_PATHS.app.webhookEnable, 'webhook-enabled', (appId, id, who) =>
    webhooks.enable(appId, id, who),
  );
  endpointAction(CONSOLE_PATHS.app.webhookDisable, 'webhook-disabled', (appId, id, who) =>
    webhooks.disable(appId, id, who),
  );
  endpointAction(CONSOLE_PATHS.app.webhookRecover, 'webhook-recovered', (appId, id, who, req) =>
    webhooks.recoverFailed(appId, id, sinceOf(field(req, 'since')), who),
  );

  router.get(CONSOLE_PATHS.app.webhookDelete, async (req, res) => {
    const found = await ownedEndpoint(req, res, false);
    if (found) pages.confirmDelete(res, found.current.viewer, found);
  });

  router.post(CONSOLE_PATHS.app.webhookDelete, guards.form, async (req, res) => {
    const clientId = String(req.params.clientId);
    const endpointId = String(req.params.endpointId);
    // Only the confirmation page's form says yes; anything else is shown that page first.
    if (field(req, 'confirm') !== 'yes') {
      return res.redirect(303, appPaths(clientId).webhook(endpointId).delete);
    }
    const found = await ownedEndpoint(req, res, true);
    if (!found) return;
    try {
      await webhooks.remove(found.app.id, found.endpoint.id, actor(req, found.current));
    } catch (error) {
      if (error instanceof NotFoundError) return guards.notFound(res, found.current.viewer);
      throw error;
    }
    notices.redirect(res, appPaths(clientId).webhooks, 'webhook-deleted');
  });

  /** The endpoint and the delivery in the path, when both are the app's and belong together. */
  async function ownedDelivery(req: Request, res: Response, isForm: boolean) {
    const found = await ownedEndpoint(req, res, isForm);
    if (!found) return undefined;
    const raw = String(req.params.deliveryId);
    const deliveryId = /^[1-9]\d{0,15}$/.test(raw) ? Number(raw) : 0;
    try {
      const details = await webhooks.delivery(found.app.id, deliveryId);
      if (details.delivery.endpoint_id !== found.endpoint.id) throw new NotFoundError('elsewhere');
      return { ...found, ...details };
    } catch (error) {
      if (error instanceof NotFoundError) return guards.notFound(res, found.current.viewer);
      throw error;
    }
  }

  router.get(CONSOLE_PATHS.app.webhookDelivery, async (req, res) => {
    const found = await ownedDelivery(req, res, false);
    if (found) pages.delivery(res, found.current.viewer, found);
  });

  router.post(CONSOLE_PATHS.app.webhookResend, guards.form, async (req, res) => {
    const found = await ownedDelivery(req, res, true);
    if (!found) return;
    const { current, app, endpoint, delivery } = found;
    try {
      await webhooks.resend(app.id, delivery.id, actor(req, current));
      const paths = appPaths(app.client_id).webhook(endpoint.id);
      notices.redirect(res, paths.delivery(delivery.id), 'webhook-resent');
    } catch (error) {
      if (error instanceof NotFoundError) return guards.notFound(res, current.viewer);
      if (!(error instanceof ValidationError)) throw error;
      pages.delivery(res, current.viewer, { ...found, error: sentence(error.message) });
    }
  });

  return router;
}

/** The endpoint form as typed: checkboxes may come once, repeated, or not at all. */
function endpointValues(req: Request): EndpointValues {
  return {
    url: field(req, 'url').trim(),
    description: field(req, 'description'),
    eventTypes: listField(req, 'event_types'),
    employerIds: listField(req, 'employer_ids'),
  };
}

function listField(req: Request, name: string): string[] {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  const values = Array.isArray(value) ? value : [value];
  return values.filter((item): item is string => typeof item === 'string' && item !== '');
}

/** `2026-11-01T09:30` typed into the UTC date-time input, as epoch milliseconds. */
function sinceOf(value: string): number {
  const match = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value.trim());
  const time = match ? Date.parse(`${value.trim()}Z`) : Number.NaN;
  if (!Number.isFinite(time)) {
    throw new ValidationError('enter the time to recover from as a date and time (UTC)', 'since');
  }
  return time;
}

function problemsOf(error: ValidationError): FieldProblem[] {
  const problems =
    error instanceof InvalidFields
      ? error.problems
      : [{ field: error.field ?? 'url', message: error.message }];
  return problems.map((problem) => ({ ...problem, message: sentence(problem.message) }));
}
