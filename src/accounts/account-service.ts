import { randomUUID } from 'node:crypto';
import { validateEmployerId } from '../../generated/validators.cjs';
import type { Clock } from '../clock.js';
import { isUniqueViolation } from '../db/errors.js';
import type { EmployerRow, UserRow } from '../db/rows.js';
import type { MembershipRole } from './vocabulary.js';
import {
  ConflictError,
  InvalidFields,
  NotFoundError,
  ValidationError,
  type FieldProblem,
} from '../errors.js';
import { hashPassword, passwordProblem } from '../security/passwords.js';
import { isPossibleIdentifier, singleLineTextProblem } from '../security/text-safety.js';
import { MAX_EMAIL_LENGTH, emailProblem } from '../validation/email.js';
import type { AccountStore, EmployerMembership } from './account-store.js';

export type PublicUser = Omit<UserRow, 'password_hash' | 'email_normalized'>;

export interface EmployerWithMembers {
  employer: EmployerRow;
  members: Array<{ userId: string; email: string; role: MembershipRole }>;
}

/** An employer as one of its members sees it, with that member's role. */
export interface MemberView {
  employer: EmployerWithMembers;
  role: MembershipRole;
}

const MAX_NAME_LENGTH = 200;

/** Rules for user accounts, employer accounts and who belongs to which employer. */
export class AccountService {
  constructor(
    private readonly store: AccountStore,
    private readonly clock: Clock,
  ) {}

  /**
   * Creates a user. Every broken rule is reported at once (InvalidFields); `requireName` is the
   * console's sign-up, where a name is asked for.
   */
  async createUser(input: {
    email: string;
    password: string;
    name?: string;
    requireName?: boolean;
  }): Promise<PublicUser> {
    const email = input.email.trim();
    const problems: FieldProblem[] = [];
    const note = (field: string, message: string | undefined) => {
      if (message) problems.push({ field, message });
    };
    const problem = emailProblem(email);
    note('email', problem && `email ${problem}`);
    note('password', passwordProblem(input.password));
    const name = input.name?.trim() || null;
    if (name !== null) note('name', nameProblem(name, 'name'));
    else if (input.requireName) note('name', 'enter your name');
    if (problems.length) throw new InvalidFields(problems);
    if (await this.store.findUserByEmail(email)) {
      throw new ConflictError(`a user with email ${email} already exists`, 'email');
    }
    const now = this.clock.now();
    const user: UserRow = {
      id: randomUUID(),
      email,
      email_normalized: email.toLowerCase(),
      name,
      password_hash: await hashPassword(input.password),
      email_verified: false,
      email_verified_at: null,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.store.insertUser(user);
    } catch (error) {
      // Another request registered the same address between our check and the insert.
      if (isUniqueViolation(error)) {
        throw new ConflictError(`a user with email ${email} already exists`, 'email');
      }
      throw error;
    }
    return toPublicUser(user);
  }

  /** Creates an employer and adds the given members (as admins), all or nothing. */
  async createEmployer(input: {
    name: string;
    memberEmails?: string[];
  }): Promise<EmployerWithMembers> {
    const name = requiredName(input.name, 'name');
    const emails = dedupeEmails(input.memberEmails ?? []);
    return this.store.inTransaction(async (store) => {
      const members = [];
      for (const email of emails) members.push(await requireUser(store, email));
      const now = this.clock.now();
      const employer: EmployerRow = { id: randomUUID(), name, created_at: now };
      await store.insertEmployer(employer);
      for (const user of members) {
        await store.insertMembership({
          user_id: user.id,
          employer_id: employer.id,
          role: 'admin',
          created_at: now,
        });
      }
      return {
        employer,
        members: members.map((user) => ({
          userId: user.id,
          email: user.email,
          role: 'admin' as const,
        })),
      };
    });
  }

  async addMember(input: {
    employerId: string;
    email: string;
    role?: MembershipRole;
  }): Promise<EmployerWithMembers> {
    const role = input.role ?? 'member';
    if (role !== 'admin' && role !== 'member') {
      throw new ValidationError('role must be admin or member', 'role');
    }
    return this.store.inTransaction(async (store) => {
      const employer = await store.findEmployerById(input.employerId);
      if (!employer) throw new NotFoundError(`no employer with id ${input.employerId}`, 'employer');
      const user = await requireUser(store, input.email.trim());
      const alreadyMember = () =>
        new ConflictError(`${user.email} is already a member of ${employer.name}`, 'email');
      if (await store.findMembership(user.id, employer.id)) throw alreadyMember();
      try {
        await store.insertMembership({
          user_id: user.id,
          employer_id: employer.id,
          role,
          created_at: this.clock.now(),
        });
      } catch (error) {
        // Another request added the same member between our check and the insert (PostgreSQL
        // runs the two transactions side by side).
        if (isUniqueViolation(error)) throw alreadyMember();
        throw error;
      }
      const members = await store.listMembersOfEmployer(employer.id);
      return {
        employer,
        members: members.map((member) => ({
          userId: member.id,
          email: member.email,
          role: member.role,
        })),
      };
    });
  }

  async employersOfUser(userId: string): Promise<EmployerRow[]> {
    return (await this.store.listEmployersOfUser(userId)).map(({ employer }) => employer);
  }

  /** The user's account without its secrets, or undefined when there is none. */
  async findUser(userId: string): Promise<PublicUser | undefined> {
    const user = await this.store.findUserById(userId);
    return user && toPublicUser(user);
  }

  /** The employers the user belongs to, each with the user's role, ordered by name. */
  membershipsOf(userId: string): Promise<EmployerMembership[]> {
    return this.store.listEmployersOfUser(userId);
  }

  /**
   * The employer with its members as one of them sees it, with that member's role; undefined
   * when the user is not a member, the employer does not exist, or the id is not one an employer
   * can have (which is not looked up).
   */
  async employerOfMember(userId: string, employerId: string): Promise<MemberView | undefined> {
    const membership = validateEmployerId(employerId)
      ? await this.store.findMembership(userId, employerId)
      : undefined;
    const employer = membership && (await this.store.findEmployerById(employerId));
    if (!membership || !employer) return undefined;
    const members = await this.store.listMembersOfEmployer(employer.id);
    return {
      role: membership.role,
      employer: {
        employer,
        members: members.map((member) => ({
          userId: member.id,
          email: member.email,
          role: member.role,
        })),
      },
    };
  }
}

async function requireUser(store: AccountStore, email: string): Promise<UserRow> {
  // An address no account can have is not looked up (a NUL would fail in PostgreSQL).
  const user = isPossibleIdentifier(email, MAX_EMAIL_LENGTH)
    ? await store.findUserByEmail(email)
    : undefined;
  if (!user) throw new NotFoundError(`no user with email ${email}`, 'email');
  return user;
}

function dedupeEmails(emails: string[]): string[] {
  const seen = new Map<string, string>();
  for (const raw of emails) {
    const email = raw.trim();
    if (!seen.has(email.toLowerCase())) seen.set(email.toLowerCase(), email);
  }
  return [...seen.values()];
}

function requiredName(value: string, field: string): string {
  const name = value.trim();
  const problem = nameProblem(name, field);
  if (problem) throw new ValidationError(problem, field);
  return name;
}

function nameProblem(name: string, field: string): string | undefined {
  if (!name) return `${field} must not be empty`;
  if (name.length > MAX_NAME_LENGTH)
    return `${field} must be at most ${MAX_NAME_LENGTH} characters`;
  const problem = singleLineTextProblem(name);
  return problem && `${field} ${problem}`;
}

export function toPublicUser(user: UserRow): PublicUser {
  const { password_hash: _hash, email_normalized: _normalized, ...rest } = user;
  return rest;
}
