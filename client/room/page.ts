import type { RoomEnvironment } from './environment.js';

/**
 * The room page's elements (views/room.njk) and what its root's data attributes say: the live
 * path, the person's role, whether the room is audio only, the lobby, recordings and CSRF token.
 */
export class RoomPage {
  readonly audioOnly: boolean;
  readonly isInterviewer: boolean;

  constructor(
    readonly root: HTMLElement,
    private readonly env: RoomEnvironment,
  ) {
    this.audioOnly = root.dataset.audioOnly === 'true';
    this.isInterviewer = root.dataset.role === 'interviewer';
  }

  get data(): DOMStringMap {
    return this.root.dataset;
  }

  byId<T extends HTMLElement = HTMLElement>(id: string): T | null {
    return this.env.document.getElementById(id) as T | null;
  }

  /** Shows `text` in the element, or hides it when there is nothing to say. */
  say(id: string, text: string | null | undefined): void {
    const element = this.byId(id);
    if (!element) return;
    element.textContent = text ?? '';
    element.hidden = !text;
  }

  show(id: string, visible: boolean): void {
    const element = this.byId(id);
    if (element) element.hidden = !visible;
  }

  create<K extends keyof HTMLElementTagNameMap>(tag: K): HTMLElementTagNameMap[K] {
    return this.env.document.createElement(tag);
  }

  /** A fetch of the service's own JSON routes, with the page's CSRF token. */
  async api(path: string, init: RequestInit): Promise<unknown> {
    const response = await this.env.fetch(path, {
      credentials: 'same-origin',
      ...init,
      headers: { 'X-CSRF-Token': this.data.csrf ?? '', ...(init.headers ?? {}) },
    });
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { error?: string };
      throw new Error(body.error ?? `the service answered ${response.status}`);
    }
    return response.status === 204 ? null : response.json();
  }
}
