export { RetentionCopy, type RetentionKind } from './retention-copy.js';
export { eraseOlderData, RETENTION_BATCH, type RetentionStep, type ErasedBatch, type RetentionReport } from './erase-older.js';
export { mountRetention, type RetentionOptions } from './mount.js';
export { retentionPreviewRoute, type RetentionCount } from './preview-route.js';
