/**
 * What the room client takes from the browser, handed in rather than read from globals so that
 * its modules run against stand-ins in tests (test/room/room-client.test.ts) as they do in
 * Chromium.
 */
export interface RoomEnvironment {
  document: Pick<Document, 'getElementById' | 'createElement'>;
  window: { addEventListener(type: 'pagehide', listener: () => void): void };
  navigator: { mediaDevices?: MediaDevices };
  location: Pick<Location, 'protocol' | 'host' | 'assign'>;
  WebSocket: typeof WebSocket;
  RTCPeerConnection: typeof RTCPeerConnection | undefined;
  MediaStream: typeof MediaStream;
  MediaRecorder: typeof MediaRecorder;
  AudioContext: typeof AudioContext;
  fetch: typeof fetch;
  setTimeout(handler: () => void, ms: number): unknown;
  setInterval(handler: () => void, ms: number): unknown;
  clearInterval(id: unknown): void;
  /** Where the lobby's device check left the chosen devices (public/device-check.js). */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
}

/** The browser's own. */
export function browserEnvironment(): RoomEnvironment {
  return {
    document,
    window,
    navigator,
    location,
    WebSocket,
    RTCPeerConnection: window.RTCPeerConnection,
    MediaStream,
    MediaRecorder: window.MediaRecorder,
    AudioContext: window.AudioContext,
    fetch: (input, init) => fetch(input, init),
    setTimeout: (handler, ms) => setTimeout(handler, ms),
    setInterval: (handler, ms) => setInterval(handler, ms),
    clearInterval: (id) => clearInterval(id as number),
    storage: storageOrNothing(),
  };
}

/** localStorage, unless the browser refuses it (storage blocked for this site). */
function storageOrNothing(): RoomEnvironment['storage'] {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}
