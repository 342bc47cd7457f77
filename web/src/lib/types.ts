export type { SessionResponse as AuthResult, User } from '@asistente/contracts';
