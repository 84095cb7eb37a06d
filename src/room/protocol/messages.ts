/**
 * The room protocol: every message the service sends to an interview page (a lobby or the room
 * behind it) over its live connection, and every message a page sends. One module for both
 * sides: the service types what it sends with it and checks what it receives against
 * `page-messages.ts`; the room's browser client (client/room) imports these types. Nothing here
 * may import Node modules: it is compiled for the browser too.
 */
import type { EventStatus, IntervieweeStatus } from '../../interviews/vocabulary.js';

export type RoomRole = 'interviewer' | 'interviewee';

/** Somebody in the room, as everyone else there sees them. */
export interface Peer {
  /** Their live connection's id: signals are addressed to it. */
  id: string;
  role: RoomRole;
  name: string;
  /** Whether the room lets this connection send video. */
  video: boolean;
  /** What the person has switched on right now. */
  microphoneOn: boolean;
  cameraOn: boolean;
}

/** A WebRTC session description as `RTCSessionDescription.toJSON()` gives it. */
export interface SessionDescription {
  type: 'offer' | 'answer' | 'pranswer' | 'rollback';
  sdp?: string;
}

/** An ICE candidate as `RTCIceCandidate.toJSON()` gives it. */
export interface IceCandidate {
  candidate: string;
  sdpMid?: string | null;
  sdpMLineIndex?: number | null;
  usernameFragment?: string | null;
}

/** What one browser hands another through the service: relayed, never read. */
export type SignalData = { description: SessionDescription } | { candidate: IceCandidate };

export interface IceServerConfig {
  urls: string | string[];
  username?: string;
  credential?: string;
}

// ---------------------------------------------------------------------------------------------
// From a page to the service
// ---------------------------------------------------------------------------------------------

export type PageMessage =
  /** Into the room; `video`: the browser has a camera to send. */
  | { type: 'join'; video: boolean }
  | { type: 'leave' }
  | { type: 'signal'; to: string; data: SignalData }
  | { type: 'media'; microphoneOn: boolean; cameraOn: boolean }
  /** An interviewer lets the waiting interviewee in (as the lobby's Admit button does). */
  | { type: 'admit' }
  /** An interviewer sends the interviewee back to the lobby (as the lobby's button does). */
  | { type: 'send-back' };

// ---------------------------------------------------------------------------------------------
// From the service to a page
// ---------------------------------------------------------------------------------------------

/** The event as the room shows it: sent when a connection opens and after every change. */
export interface RoomState {
  type: 'state';
  eventStatus: EventStatus;
  interviewee: { name: string; status: IntervieweeStatus } | null;
  /** Who is in the room now, whoever's process holds them, oldest first. */
  present: Array<{ role: RoomRole; name: string }>;
  /** What an interviewer may do about the interviewee now. */
  admission: {
    canAdmit: boolean;
    canSendBack: boolean;
    /** Why the waiting interviewee cannot be admitted (every admission was used), or null. */
    refusal: string | null;
  };
}

/** Why the service took the person out of the room; the page says so and goes back. */
export interface RoomNotice {
  type: 'removed' | 'ended';
  message: string;
}

export type ServiceMessage =
  /** The first message of every connection. */
  | { type: 'hello'; role: RoomRole }
  /** The event changed: a lobby page fetches itself again. */
  | { type: 'changed' }
  | RoomState
  /** This connection is in the room now, with these others. */
  | {
      type: 'room';
      you: Peer;
      peers: Peer[];
      iceServers: IceServerConfig[];
      maxVideoParticipants: number;
      /** Why the room took audio only although the browser offered video, or null. */
      videoRefusal: string | null;
    }
  | { type: 'peer-joined' | 'peer-left' | 'peer-media'; peer: Peer }
  | { type: 'signal'; from: string; data: SignalData }
  /** A recording starts (`startsAt`, after a notice) or stopped. */
  | { type: 'recording'; active: boolean; recordingId: string; startsAt: number }
  /** The service could not let this connection into the room. */
  | { type: 'refused'; message: string }
  /** An Admit or Send back from the room was refused; nothing changed. */
  | { type: 'admission-refused'; message: string }
  /** A message the service could not read was dropped; the connection stays usable. */
  | { type: 'invalid'; message: string }
  | RoomNotice;

export type ServiceMessageType = ServiceMessage['type'];
export type PageMessageType = PageMessage['type'];

/** Every kind of service message, for the browser's check of what arrives. */
export const SERVICE_MESSAGE_TYPES = [
  'hello',
  'changed',
  'state',
  'room',
  'peer-joined',
  'peer-left',
  'peer-media',
  'signal',
  'recording',
  'refused',
  'admission-refused',
  'invalid',
  'removed',
  'ended',
] as const satisfies readonly ServiceMessageType[];

// Fails to compile when a kind of ServiceMessage is missing from the list above.
type Missing = Exclude<ServiceMessageType, (typeof SERVICE_MESSAGE_TYPES)[number]>;
const everyKindListed: [Missing] extends [never] ? true : Missing = true;
void everyKindListed;

/** The service's side: a typed message as it goes on the wire. */
export function encodeServiceMessage(message: ServiceMessage): string {
  return JSON.stringify(message);
}

/**
 * The page's side: the service's message, or null for anything that is not one (the page
 * ignores it). The service is trusted (same origin); only the kind is checked.
 */
export function decodeServiceMessage(text: string): ServiceMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const type = (value as { type?: unknown }).type;
  return (SERVICE_MESSAGE_TYPES as readonly unknown[]).includes(type)
    ? (value as ServiceMessage)
    : null;
}

/** The page's side: a typed message as it goes on the wire. */
export function encodePageMessage(message: PageMessage): string {
  return JSON.stringify(message);
}
