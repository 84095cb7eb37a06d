import type { Request, Response } from 'express';
import { parse, serialize } from 'cookie';

/** Flags every cookie of the service's own pages carries. */
export interface CookieFlags {
  /** Send only over https; on whenever AUTH_URL is https. */
  secure: boolean;
  /** Lifetime in seconds; omitted for a cookie that ends with the browser session. */
  maxAgeSeconds?: number;
}

/** The value of one cookie of the request, or undefined when it is absent. */
export function readCookie(req: Request, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  return parse(header)[name];
}

/** Adds a Set-Cookie header: HttpOnly, SameSite=Lax, Path=/, and Secure when asked. */
export function writeCookie(res: Response, name: string, value: string, flags: CookieFlags): void {
  res.append(
    'Set-Cookie',
    serialize(name, value, {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: flags.secure,
      maxAge: flags.maxAgeSeconds,
    }),
  );
}

/** Tells the browser to forget a cookie. */
export function clearCookie(res: Response, name: string, flags: Pick<CookieFlags, 'secure'>): void {
  res.append(
    'Set-Cookie',
    serialize(name, '', {
      httpOnly: true,
      sameSite: 'lax',
      path: '/',
      secure: flags.secure,
      expires: new Date(0),
      maxAge: 0,
    }),
  );
}
