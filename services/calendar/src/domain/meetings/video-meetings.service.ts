import type { MeetingProviderChoice, VideoMeeting, VideoMeetingBody } from '@asistente/contracts';
import { AppError, checkEventForm } from '@asistente/kit';
import type { CreatedMeeting, MeetingProvider, MeetingRequest } from './meeting-port.js';

/** The attendees as every provider gets them: trimmed, lowercase, each once. */
export function attendeeList(attendees: readonly string[] | undefined): string[] {
  return [...new Set((attendees ?? []).map((a) => a.trim().toLowerCase()).filter((a) => a !== ''))];
}

/** The route's body checked by the kit's one event rule (a title, real instants, the end after the start). */
export function meetingRequest(body: VideoMeetingBody): MeetingRequest {
  const form = checkEventForm({ title: body.title, startTime: body.startTime, endTime: body.endTime });
  const description = body.description?.trim();
  return { title: form.title, description: description ? description : null, startTime: form.start, endTime: form.end, attendees: attendeeList(body.attendees) };
}

export function toVideoMeeting(meeting: CreatedMeeting): VideoMeeting {
  return { ...meeting, startTime: meeting.startTime.toISOString(), endTime: meeting.endTime.toISOString() };
}

/** 'A', 'A o B', 'A, B o C'. */
function either(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} o ${names.at(-1)!}`;
}

/**
 * Video meetings with whichever provider the member has connected: the providers in the order they were
 * registered, the first connected one taking the meeting (Google Meet before Teams). A write is never retried
 * with the next provider: a failure may have created the meeting.
 */
export class VideoMeetings {
  constructor(private readonly providers: readonly MeetingProvider[]) {}

  /** The provider a new meeting of this member would go to, if any. */
  async choose(userId: string): Promise<MeetingProvider | undefined> {
    for (const provider of this.providers) if (await provider.connected(userId)) return provider;
    return undefined;
  }

  async choice(userId: string): Promise<MeetingProviderChoice> {
    return { provider: (await this.choose(userId))?.name ?? null };
  }

  /** Checked before any provider is asked: a bad range or title reaches none of them. */
  async create(userId: string, body: VideoMeetingBody): Promise<VideoMeeting> {
    const request = meetingRequest(body);
    const provider = await this.choose(userId);
    if (!provider) {
      const accounts = either([...new Set(this.providers.map((p) => p.account))]);
      throw new AppError(409, 'MEETING_PROVIDER_NOT_CONNECTED', `Conecta ${accounts} para crear reuniones por videollamada`);
    }
    return toVideoMeeting(await provider.create(userId, request));
  }
}
