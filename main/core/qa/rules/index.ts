/** Every conformance rule, in the order docs/conformance.md lists them. */
import type { Rule } from '../types';
import { advertisedContentRefused, advertisedMethodMissing, unadvertisedClientMethod, unadvertisedContentAccepted, unadvertisedMethodAnswered, unadvertisedUpdate } from './capabilities';
import { jsonRpcEnvelope, oversizeLine, resultAndError, stdoutNoise, unknownResponseId } from './framing';
import { cancelLeftRequests, cancelStopReason, cancelUnanswered, loadReplayedNothing, permissionUnknownToolCall, toolCallUpdateUnknownId, updateAfterTurn } from './lifecycle';
import { protocolVersion, unknownMethod, unknownUpdateKind } from './methods';
import { schemaParams, schemaResult, schemaTolerated } from './schema';

export const RULES: readonly Rule[] = [
  // Lines and envelopes
  stdoutNoise,
  oversizeLine,
  jsonRpcEnvelope,
  resultAndError,
  unknownResponseId,
  // Schema
  schemaParams,
  schemaResult,
  schemaTolerated,
  // Methods and kinds
  unknownMethod,
  unknownUpdateKind,
  protocolVersion,
  // Capabilities
  advertisedMethodMissing,
  unadvertisedMethodAnswered,
  unadvertisedClientMethod,
  unadvertisedUpdate,
  advertisedContentRefused,
  unadvertisedContentAccepted,
  // Lifecycle
  updateAfterTurn,
  toolCallUpdateUnknownId,
  permissionUnknownToolCall,
  cancelUnanswered,
  cancelStopReason,
  cancelLeftRequests,
  loadReplayedNothing,
];

const RATIONALES = new Map(RULES.map((r) => [r.id, r.rationale]));
/** Why rule `id` matters, in its own words ('' for an id no rule has). */
export const ruleRationale = (id: string): string => RATIONALES.get(id) ?? '';
