import type { AuditLog } from '../audit/audit-log.js';
import type { Clock } from '../clock.js';
import type { CalendarMailStore } from './calendar-mail-store.js';

export interface AppCalendarSwitches {
  /** Invitations, updates and cancellations. */
  invitations: boolean;
  reminders: boolean;
}

/** Who changed an app's switches, for the audit trail. */
export interface SettingsActor {
  userId?: string | null;
  ip?: string | null;
  requestId?: string | null;
}

/**
 * Each app's calendar mail switches: a partner whose ATS mails its own invitations turns them
 * off. Both are on for an app that never changed them. They apply to changes made afterwards.
 */
export class AppCalendarSettings {
  constructor(
    private readonly store: CalendarMailStore,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  async of(appId: string): Promise<AppCalendarSwitches> {
    const row = await this.store.appSettings(appId);
    return { invitations: row?.invitations ?? true, reminders: row?.reminders ?? true };
  }

  /** Sets both switches, recording the change (if any) in the app's audit trail. */
  async set(appId: string, switches: AppCalendarSwitches, actor: SettingsActor = {}) {
    await this.store.inTransaction(async (store, tx) => {
      const before = await store.appSettings(appId);
      await store.saveAppSettings({
        app_id: appId,
        invitations: switches.invitations,
        reminders: switches.reminders,
        updated_at: this.clock.now(),
      });
      const was = {
        invitations: before?.invitations ?? true,
        reminders: before?.reminders ?? true,
      };
      if (was.invitations === switches.invitations && was.reminders === switches.reminders) return;
      await this.audit.record(
        {
          type: 'calendar_mail.settings_changed',
          actorUserId: actor.userId ?? null,
          appId,
          ip: actor.ip ?? null,
          requestId: actor.requestId ?? null,
          details: {
            invitations: switches.invitations ? 'on' : 'off',
            reminders: switches.reminders ? 'on' : 'off',
          },
        },
        tx,
      );
    });
  }
}
