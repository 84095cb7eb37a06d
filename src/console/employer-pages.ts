import type { Response } from 'express';
import type { EmployerWithMembers } from '../accounts/account-service.js';
import type { EmployerMembership } from '../accounts/account-store.js';
import type { MembershipRole } from '../accounts/vocabulary.js';
import { problemContext, renderConsolePage, type FormProblem, type Viewer } from './pages.js';
import { CONSOLE_PATHS, employerPaths } from './paths.js';

export interface AddMemberValues {
  email: string;
  role: MembershipRole;
}

/**
 * The console's employer pages: the employers the user belongs to and one employer's members.
 * Same template settings as the other console pages: autoescaped, undefined values refused.
 */
export class EmployerPages {
  list(
    res: Response,
    viewer: Viewer,
    page: {
      employers: EmployerMembership[];
      name?: string;
      status?: number;
      problem?: FormProblem;
    },
  ): void {
    this.render(res, page.status ?? 200, 'console-employers.njk', viewer, {
      create_action: CONSOLE_PATHS.employers.list,
      name: page.name ?? '',
      employers: page.employers.map(({ employer, role }) => ({
        name: employer.name,
        id: employer.id,
        role: roleLabel(role),
        href: employerPaths(employer.id).detail,
      })),
      ...problemContext(page.problem),
    });
  }

  detail(
    res: Response,
    viewer: Viewer,
    page: {
      employer: EmployerWithMembers;
      viewerRole: MembershipRole;
      values?: AddMemberValues;
      status?: number;
      problem?: FormProblem;
    },
  ): void {
    const { employer, members } = page.employer;
    this.render(res, page.status ?? 200, 'console-employers-detail.njk', viewer, {
      employers_href: CONSOLE_PATHS.employers.list,
      employer_name: employer.name,
      employer_id: employer.id,
      your_role: roleLabel(page.viewerRole),
      is_admin: page.viewerRole === 'admin',
      members: members.map((member) => ({
        email: member.email,
        role: roleLabel(member.role),
        is_you: member.email === viewer.email,
      })),
      add_action: employerPaths(employer.id).members,
      email: page.values?.email ?? '',
      role: page.values?.role ?? 'member',
      ...problemContext(page.problem),
    });
  }

  private render(
    res: Response,
    status: number,
    template: string,
    viewer: Viewer,
    context: Record<string, unknown>,
  ): void {
    renderConsolePage(res, status, template, viewer, context);
  }
}

function roleLabel(role: MembershipRole): string {
  return role === 'admin' ? 'Admin' : 'Member';
}
