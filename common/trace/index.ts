/** Trace records, ids and parsing: the data layer shared by the core, history, UI and QA. */
export * from './records';
export * from './ids';
export * from './clock';
export * from './json';
export * from './launch-spec';
export * from './parse';
export * from './sessions';
