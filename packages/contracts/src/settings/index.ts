export * from './google.js';
export * from './microsoft.js';
export * from './sign-in-limits.js';
