import { Router, type Request, type Response } from 'express';
import type { MemberView } from '../accounts/account-service.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import type { ConsoleGuards, SignedIn } from './console-guards.js';
import type { ConsoleDependencies } from './dependencies.js';
import { EmployerPages, type AddMemberValues } from './employer-pages.js';
import { field, sentence } from './forms.js';
import type { ConsolePages } from './pages.js';
import { CONSOLE_PATHS, employerPaths } from './paths.js';

const EMAIL_REQUIRED = 'Enter the email address of the person to add.';
const ROLE_REQUIRED = 'Choose whether the new member is an admin or a member.';

/**
 * The console's Employers section: the employer accounts the signed-in user belongs to (the
 * ones employer-scoped tokens can represent and appinfo lists), creating one, and an employer's
 * members. Only members see an employer; anyone else gets the same 404 as for an unknown id.
 * Only admins add members.
 */
export function employersRouter(
  deps: ConsoleDependencies,
  guards: ConsoleGuards,
  consolePages: ConsolePages,
): Router {
  const service = deps.accounts;
  const pages = new EmployerPages();
  const router = Router();

  /** The employer when the user is a member of it; otherwise answers 404. */
  async function memberView(
    res: Response,
    current: SignedIn,
    employerId: string,
  ): Promise<MemberView | undefined> {
    const view = await service.employerOfMember(current.session.userId, employerId);
    if (!view) guards.notFound(res, current.viewer);
    return view;
  }

  router.get(CONSOLE_PATHS.employers.list, async (req, res) => {
    const current = await guards.signedIn(req, res);
    if (!current) return;
    const employers = await service.membershipsOf(current.session.userId);
    pages.list(res, current.viewer, { employers });
  });

  router.post(CONSOLE_PATHS.employers.list, guards.form, async (req, res) => {
    const current = await guards.signedInForm(req, res);
    if (!current) return;
    const name = field(req, 'name');
    const user = await service.findUser(current.session.userId);
    if (!user) return guards.notFound(res, current.viewer);
    try {
      const created = await service.createEmployer({ name, memberEmails: [user.email] });
      deps.notices.redirect(res, employerPaths(created.employer.id).detail, 'employer-created');
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const employers = await service.membershipsOf(current.session.userId);
      pages.list(res, current.viewer, {
        employers,
        name,
        status: 400,
        problem: { message: sentence(error.message), field: 'name' },
      });
    }
  });

  router.get(CONSOLE_PATHS.employers.detail, async (req, res) => {
    const current = await guards.signedIn(req, res);
    if (!current) return;
    const view = await memberView(res, current, param(req, 'employerId'));
    if (!view) return;
    pages.detail(res, current.viewer, { employer: view.employer, viewerRole: view.role });
  });

  router.post(CONSOLE_PATHS.employers.members, guards.form, async (req, res) => {
    const current = await guards.signedInForm(req, res);
    if (!current) return;
    const view = await memberView(res, current, param(req, 'employerId'));
    if (!view) return;
    if (view.role !== 'admin') {
      return consolePages.message(res, 403, current.viewer, {
        title: 'Only admins can add members',
        message: `You are a member of ${view.employer.employer.name}, not an admin. Ask one of its admins to add people. Nothing was changed.`,
      });
    }
    const role = field(req, 'role');
    const values: AddMemberValues = {
      email: field(req, 'email').trim(),
      role: role === 'admin' ? 'admin' : 'member',
    };
    const again = (status: number, message: string, problemField: string) =>
      pages.detail(res, current.viewer, {
        employer: view.employer,
        viewerRole: view.role,
        values,
        status,
        problem: { message, field: problemField },
      });
    if (!values.email) return again(400, EMAIL_REQUIRED, 'email');
    if (role !== 'admin' && role !== 'member') return again(400, ROLE_REQUIRED, 'role');
    try {
      await service.addMember({
        employerId: view.employer.employer.id,
        email: values.email,
        role: values.role,
      });
      deps.notices.redirect(res, employerPaths(view.employer.employer.id).detail, 'member-added');
    } catch (error) {
      if (error instanceof NotFoundError && error.field === 'email') {
        return again(
          400,
          `There is no account with the email ${values.email}. Ask them to create one in the ` +
            'partner console first, then add them here. Nothing was changed.',
          'email',
        );
      }
      if (error instanceof NotFoundError) return guards.notFound(res, current.viewer);
      if (error instanceof ConflictError) {
        return again(409, `${values.email} is already a member of this employer.`, 'email');
      }
      if (error instanceof ValidationError) {
        return again(400, sentence(error.message), error.field ?? 'email');
      }
      throw error;
    }
  });

  return router;
}

function param(req: Request, name: string): string {
  const value: unknown = req.params[name];
  return typeof value === 'string' ? value : '';
}
