import type { ContentBlock as SdkContentBlock } from '@agentclientprotocol/sdk/unstable';
import { ApiError } from '../../../common/api/errors';
import type { SessionManager } from '../sessions/session-manager';
import type { RequestHandlers } from './handlers';

type SessionRequests = Pick<
  RequestHandlers,
  | 'sessions/start'
  | 'sessions/abort-start'
  | 'sessions/live'
  | 'session/snapshot'
  | 'session/entries'
  | 'session/prompt'
  | 'session/cancel'
  | 'session/set-mode'
  | 'session/set-config'
  | 'session/set-model'
  | 'session/answer-permission'
  | 'session/answer-elicitation'
  | 'session/restart'
  | 'session/close'
  | 'session/rename'
  | 'session/file-text'
  | 'session/diff-texts'
  | 'session/find'
  | 'session/undo-change'
>;

function need<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null || value === '') throw new ApiError({ code: 'bad_params', message: `missing ${what}` });
  return value;
}

export function sessionHandlers(sessions: SessionManager): SessionRequests {
  return {
    'sessions/start': (p) => {
      need(p?.cwd, 'cwd');
      need(p?.agent, 'agent');
      return sessions.start(p);
    },
    'sessions/abort-start': (p) => sessions.abortStart(need(p?.startId, 'startId')),
    'sessions/live': () => sessions.list(),
    'session/snapshot': (p) => sessions.snapshot(need(p?.sessionId, 'sessionId')),
    'session/entries': (p) => sessions.entries(need(p?.sessionId, 'sessionId'), p.offset ?? 0, p.limit, p.fromEnd === true),
    'session/prompt': (p) => sessions.prompt(need(p?.sessionId, 'sessionId'), need(p.prompt, 'prompt') as SdkContentBlock[]),
    'session/cancel': (p) => sessions.cancel(need(p?.sessionId, 'sessionId')),
    'session/set-mode': (p) => sessions.setMode(need(p?.sessionId, 'sessionId'), need(p.modeId, 'modeId')),
    'session/set-config': (p) => sessions.setConfig(need(p?.sessionId, 'sessionId'), need(p.configId, 'configId'), p.value),
    'session/set-model': (p) => sessions.setModel(need(p?.sessionId, 'sessionId'), need(p.modelId, 'modelId')),
    'session/answer-permission': (p) => sessions.answerPermission(p),
    'session/answer-elicitation': (p) => sessions.answerElicitation(p),
    'session/restart': (p) => sessions.restart(need(p?.sessionId, 'sessionId'), p.authMethodId),
    'session/close': (p) => sessions.close(need(p?.sessionId, 'sessionId')),
    'session/rename': (p) => {
      if (p?.title !== null && typeof p?.title !== 'string') throw new ApiError({ code: 'bad_params', message: 'title must be a string, or null to clear it' });
      if (p.title !== null && p.title.length > 500) throw new ApiError({ code: 'bad_params', message: 'a title is at most 500 characters' });
      sessions.rename(need(p.sessionId, 'sessionId'), p.title);
    },
    'session/file-text': (p) => sessions.fileText(need(p?.sessionId, 'sessionId'), need(p.path, 'path')),
    'session/diff-texts': (p) => sessions.diffTexts(need(p?.sessionId, 'sessionId'), need(p.entryId, 'entryId'), p.index),
    'session/find': (p) => {
      if (typeof p?.query !== 'string') throw new ApiError({ code: 'bad_params', message: 'query must be a string' });
      return sessions.find(need(p.sessionId, 'sessionId'), p.query);
    },
    'session/undo-change': (p) => sessions.undoChange(need(p?.sessionId, 'sessionId'), need(p.changeId, 'changeId')),
  };
}
