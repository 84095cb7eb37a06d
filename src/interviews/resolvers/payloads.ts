import type {
  CancelVirtualInterviewEventPayloadResolvers,
  CreateVirtualInterviewEventPayloadResolvers,
  ResolversParentTypes as Parents,
  UpdateVirtualInterviewEventPayloadResolvers,
  VirtualInterviewAppointmentScheduledTimeResolvers,
  VirtualInterviewEventsPayloadResolvers,
} from '../../../generated/graphql.js';
import { passThrough } from './fields.js';

export const CreateVirtualInterviewEventPayload: CreateVirtualInterviewEventPayloadResolvers =
  passThrough<Parents['CreateVirtualInterviewEventPayload']>()('event');
export const UpdateVirtualInterviewEventPayload: UpdateVirtualInterviewEventPayloadResolvers =
  passThrough<Parents['UpdateVirtualInterviewEventPayload']>()('event');
export const CancelVirtualInterviewEventPayload: CancelVirtualInterviewEventPayloadResolvers =
  passThrough<Parents['CancelVirtualInterviewEventPayload']>()('event');
export const VirtualInterviewEventsPayload: VirtualInterviewEventsPayloadResolvers =
  passThrough<Parents['VirtualInterviewEventsPayload']>()('events');
export const VirtualInterviewAppointmentScheduledTime: VirtualInterviewAppointmentScheduledTimeResolvers =
  passThrough<Parents['VirtualInterviewAppointmentScheduledTime']>()('startTime', 'endTime');
