// The meeting port: what a provider of video meetings (Google Meet, Microsoft Teams, a test's in-memory one)
// does, in the domain's words. No provider's shape crosses it: a meeting is a time range, a title, the
// attendees invited and the link to join.

/** A meeting to create, already checked (a title, the end after the start, attendees lowercase and unique). */
export interface MeetingRequest {
  title: string;
  description: string | null;
  startTime: Date;
  endTime: Date;
  attendees: string[];
}

export interface CreatedMeeting {
  /** The provider's own id for it. */
  id: string;
  /** The name of the provider that created it. */
  provider: string;
  /** Null only when the provider created it without a link yet. */
  joinUrl: string | null;
  title: string;
  startTime: Date;
  endTime: Date;
  attendees: string[];
}

/**
 * One provider of video meetings for the members who connected it. Failures are AppErrors in Spanish (the
 * provider not connected, refused, unreachable): never a 500, never a wait without end.
 */
export interface MeetingProvider {
  /** Its name in the registry and in the answers (`google-meet`, `teams`). */
  readonly name: string;
  /** The account a member connects to use it, as the Spanish messages name it ('Google Calendar'). */
  readonly account: string;
  /** Whether the member has it connected now (a revoked grant is not connected). */
  connected(userId: string): Promise<boolean>;
  /** Creates the meeting and invites the attendees. */
  create(userId: string, request: MeetingRequest): Promise<CreatedMeeting>;
}
