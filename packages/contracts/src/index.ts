export * from './common.js';
export * from './auth.js';
export * from './contacts.js';
export * from './events.js';
export * from './ai.js';
export * from './email.js';
export * from './analytics.js';
export * from './calendar.js';
