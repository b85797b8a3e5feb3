/** The transcript model, its patches, the reducer that makes them, and their application. */
export * from './acp-types';
export * from './model';
export * from './patches';
export { applyPatches, TranscriptApplier } from './apply-patches';
export { reduce, createReducerState, initialReducerState, type ReducerState, type ReduceResult } from './reducer';
export { TranscriptBuilder, rebuildTranscript, rebuildSessionTranscript } from './rebuild';
export { renderTranscriptText } from './render-text';
export { LiveTranscript, DEFAULT_HOT_ENTRIES } from './live-transcript';
export { MemoryColdStore, type ColdStore, type ColdRef } from './cold-store';
