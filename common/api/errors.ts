/**
 * Errors that cross the UI/core boundary. Every failure that reaches the UI says what happened and,
 * where there is one, what the user can do; `data` carries the real cause (stderr tail, error.data).
 */
export type ApiErrorCode =
  | 'unknown_request'
  | 'bad_params'
  | 'not_found'
  | 'not_available'
  | 'agent_failed'
  /** The agent wants a login first; `data` is an AgentAuthView (auth-types.ts). */
  | 'auth_required'
  | 'internal'
  /** The user stopped what was under way (e.g. `sessions/abort-start`). */
  | 'cancelled'
  | 'transport_closed';

export interface ApiErrorShape {
  code: ApiErrorCode;
  message: string;
  /** What the user can do about it, when there is something. */
  hint?: string;
  data?: unknown;
}

export class ApiError extends Error implements ApiErrorShape {
  readonly code: ApiErrorCode;
  readonly hint?: string;
  readonly data?: unknown;
  constructor(shape: ApiErrorShape) {
    super(shape.message);
    this.name = 'ApiError';
    this.code = shape.code;
    if (shape.hint !== undefined) this.hint = shape.hint;
    if (shape.data !== undefined) this.data = shape.data;
  }
  toShape(): ApiErrorShape {
    const shape: ApiErrorShape = { code: this.code, message: this.message };
    if (this.hint !== undefined) shape.hint = this.hint;
    if (this.data !== undefined) shape.data = this.data;
    return shape;
  }
}

/** Turn anything thrown into the wire shape; non-ApiErrors become `internal` with their message. */
export function toApiErrorShape(err: unknown): ApiErrorShape {
  if (err instanceof ApiError) return err.toShape();
  if (isApiErrorShape(err)) return err;
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'internal', message };
}

export function isApiErrorShape(value: unknown): value is ApiErrorShape {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { code?: unknown }).code === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}
