import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Request, Response } from 'express';
import { parse, serialize } from 'cookie';
import type { Clock } from '../clock.js';

/** Name of the cookie that remembers who is using an interviewer lobby. */
export const INTERVIEWER_COOKIE = 'hpa_lobby_interviewer';

/** An interview day; afterwards the interviewer enters their email again. */
const LIFETIME_SECONDS = 12 * 60 * 60;

const VALUE_FORMAT = /^([A-Za-z0-9-]{1,64})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** Where a remembered choice holds: one event, and the path of its interviewer lobby. */
export interface LobbyPlace {
  eventId: string;
  path: string;
}

/**
 * Remembers which invited interviewer uses an interviewer lobby in this browser.
 *
 * The cookie (HttpOnly, SameSite=Lax) is scoped to the lobby's own path, so it is sent only to
 * that event's pages, and its value is `<interviewer id>.<expiry>.<HMAC>`: the MAC covers the
 * event id, the interviewer id and the expiry under a key derived from the server secret. Nobody
 * can turn it into another interviewer, carry it to another event, or extend it.
 */
export class InterviewerIdentities {
  private readonly key: Buffer;

  constructor(
    serverSecret: string,
    private readonly clock: Clock,
    private readonly cookie: { secure: boolean },
  ) {
    this.key = Buffer.from(
      hkdfSync('sha256', serverSecret, 'hiring-partner-api', 'lobby-interviewer', 32),
    );
  }

  remember(res: Response, place: LobbyPlace, interviewerId: string): void {
    const expires = Math.floor(this.clock.now() / 1000) + LIFETIME_SECONDS;
    const value = `${interviewerId}.${expires}.${this.mac(place.eventId, interviewerId, expires)}`;
    this.write(res, place, value, LIFETIME_SECONDS);
  }

  /** The interviewer id this browser was given for the event, or null. */
  recall(req: Pick<Request, 'headers'>, place: LobbyPlace): string | null {
    const header = req.headers.cookie;
    const value = header ? parse(header)[INTERVIEWER_COOKIE] : undefined;
    const match = value ? VALUE_FORMAT.exec(value) : null;
    if (!match) return null;
    const [, interviewerId = '', expiresText = '', presented = ''] = match;
    const expires = Number(expiresText);
    if (expires * 1000 <= this.clock.now()) return null;
    const expected = this.mac(place.eventId, interviewerId, expires);
    const a = Buffer.from(presented);
    const b = Buffer.from(expected);
    return a.length === b.length && timingSafeEqual(a, b) ? interviewerId : null;
  }

  forget(res: Response, place: LobbyPlace): void {
    this.write(res, place, '', 0);
  }

  private mac(eventId: string, interviewerId: string, expires: number): string {
    return createHmac('sha256', this.key)
      .update(`v1\n${eventId}\n${interviewerId}\n${expires}`, 'utf8')
      .digest('base64url');
  }

  private write(res: Response, place: LobbyPlace, value: string, maxAge: number): void {
    res.append(
      'Set-Cookie',
      serialize(INTERVIEWER_COOKIE, value, {
        httpOnly: true,
        sameSite: 'lax',
        secure: this.cookie.secure,
        path: place.path,
        maxAge,
        ...(maxAge === 0 ? { expires: new Date(0) } : {}),
      }),
    );
  }
}
