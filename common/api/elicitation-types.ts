/**
 * An agent's request for structured input (acp-reference §14), as the UI sees it while it waits
 * for the user: a form generated from `requestedSchema`, or a URL the user agrees to open.
 */
export interface ElicitationView {
  /** Our key for answering it (the agent's request id, scoped to the session). */
  key: string;
  sessionId: string;
  mode: 'form' | 'url';
  message: string;
  /** form mode: the JSON schema of the fields. */
  requestedSchema?: ElicitationSchema;
  /** url mode */
  url?: string;
  elicitationId?: string;
  toolCallId?: string;
}

export interface ElicitationSchema {
  title?: string;
  description?: string;
  properties: Record<string, ElicitationProperty>;
  required?: string[];
}

export interface ElicitationProperty {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  title?: string;
  description?: string;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: 'email' | 'uri' | 'date' | 'date-time';
  enum?: string[];
  oneOf?: Array<{ const: string; title?: string; description?: string }>;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: { type?: 'string'; enum?: string[]; anyOf?: Array<{ const: string; title?: string }> };
}

export type ElicitationAnswer =
  | { action: 'accept'; content?: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' }
  | { action: 'cancel' };
