import type { Clock } from '../clock.js';
import type { CalendarMailStore } from './calendar-mail-store.js';

export interface AppCalendarSwitches {
  /** Invitations, updates and cancellations. */
  invitations: boolean;
  reminders: boolean;
}

/**
 * Each app's calendar mail switches: a partner whose ATS mails its own invitations turns them
 * off. Both are on for an app that never changed them. They apply to changes made afterwards.
 */
export class AppCalendarSettings {
  constructor(
    private readonly store: CalendarMailStore,
    private readonly clock: Clock,
  ) {}

  async of(appId: string): Promise<AppCalendarSwitches> {
    const row = await this.store.appSettings(appId);
    return { invitations: row?.invitations ?? true, reminders: row?.reminders ?? true };
  }

  async set(appId: string, switches: AppCalendarSwitches): Promise<void> {
    await this.store.saveAppSettings({
      app_id: appId,
      invitations: switches.invitations,
      reminders: switches.reminders,
      updated_at: this.clock.now(),
    });
  }
}
