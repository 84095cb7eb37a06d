import type { EmployerRow, MembershipRow, UserRow } from '../db/rows.js';
import type { MembershipRole } from './vocabulary.js';
import { Store } from '../db/store.js';
import { sqlByShape } from '../db/sql-shapes.js';

export interface EmployerMembership {
  employer: EmployerRow;
  role: MembershipRole;
}

/** A user with the employers they belong to (listEmployersOfUser's list). */
export interface UserWithEmployers {
  user: UserRow;
  employers: EmployerMembership[];
}

/** The result column of the employers list; no column of users has this name. */
const EMPLOYERS_COLUMN = 'employers__json';

/** A user's row and, as one JSON column, their employers in listEmployersOfUser's order. */
const userWithEmployersSql = sqlByShape(({ json }) => {
  const element = json.object([
    ['id', 'e.id'],
    ['name', 'e.name'],
    ['created_at', 'e.created_at'],
    ['role', 'm.role'],
  ]);
  return (
    `select u.*, (select ${json.arrayOf(element, 'e.name, e.id')} from employers e ` +
    `join memberships m on m.employer_id = e.id where m.user_id = u.id) as ${EMPLOYERS_COLUMN} ` +
    `from users u where u.id = ?`
  );
});

/** SQL for users, employers and memberships. */
export class AccountStore extends Store {
  async insertUser(user: UserRow): Promise<void> {
    await this.db('users').insert(user);
  }

  async findUserByEmail(email: string): Promise<UserRow | undefined> {
    const row = await this.db('users').where({ email_normalized: email.toLowerCase() }).first();
    return row && toUser(row);
  }

  async findUserById(id: string): Promise<UserRow | undefined> {
    const row = await this.db('users').where({ id }).first();
    return row && toUser(row);
  }

  /** A user and their employers, in one statement (a token's claims need both). */
  async findUserWithEmployers(id: string): Promise<UserWithEmployers | undefined> {
    const { dialect } = this;
    const [row] = await dialect.select(this.db, userWithEmployersSql(dialect), [id]);
    if (!row) return undefined;
    const { [EMPLOYERS_COLUMN]: list, ...user } = row;
    const employers = dialect.json.parse(list) as Array<EmployerRow & { role: MembershipRole }>;
    return {
      user: toUser(user as unknown as UserRow),
      employers: employers.map(({ role, ...employer }) => ({ employer, role })),
    };
  }

  /** Records that the user read a mail sent to their address (the first time counts). */
  async markEmailVerified(userId: string, at: number): Promise<void> {
    await this.db('users')
      .where({ id: userId })
      .update({
        email_verified: true,
        email_verified_at: this.db.raw('coalesce(email_verified_at, ?)', [at]),
        updated_at: at,
      });
  }

  async updatePasswordHash(userId: string, passwordHash: string, at: number): Promise<void> {
    await this.db('users')
      .where({ id: userId })
      .update({ password_hash: passwordHash, updated_at: at });
  }

  async insertEmployer(employer: EmployerRow): Promise<void> {
    await this.db('employers').insert(employer);
  }

  async findEmployerById(id: string): Promise<EmployerRow | undefined> {
    return this.db('employers').where({ id }).first();
  }

  async insertMembership(membership: MembershipRow): Promise<void> {
    await this.db('memberships').insert(membership);
  }

  async findMembership(userId: string, employerId: string): Promise<MembershipRow | undefined> {
    return this.db('memberships').where({ user_id: userId, employer_id: employerId }).first();
  }

  /** The employers a user belongs to, ordered by name then id for stable listings. */
  async listEmployersOfUser(userId: string): Promise<EmployerMembership[]> {
    const rows: Array<EmployerRow & { role: MembershipRole }> = await this.db('employers as e')
      .join('memberships as m', 'm.employer_id', 'e.id')
      .where('m.user_id', userId)
      .orderBy([{ column: 'e.name' }, { column: 'e.id' }])
      .select('e.id', 'e.name', 'e.created_at', 'm.role');
    return rows.map(({ role, ...employer }) => ({ employer, role }));
  }

  async listMembersOfEmployer(
    employerId: string,
  ): Promise<Array<UserRow & { role: MembershipRole }>> {
    const rows = await this.db('users as u')
      .join('memberships as m', 'm.user_id', 'u.id')
      .where('m.employer_id', employerId)
      .orderBy('u.email_normalized')
      .select('u.*', 'm.role');
    return rows.map((row: UserRow & { role: MembershipRole }) => ({
      ...toUser(row),
      role: row.role,
    }));
  }
}

/** SQLite returns booleans as 0/1; normalise so callers always see true/false. */
function toUser<T extends UserRow>(row: T): T {
  return {
    ...row,
    email_verified: Boolean(row.email_verified),
    email_verified_at: row.email_verified_at === null ? null : Number(row.email_verified_at),
  };
}
