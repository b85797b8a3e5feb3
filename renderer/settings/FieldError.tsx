import { useSettings } from './settings-store';

/** An error under a field, when the last change of it was refused. */
export function FieldError({ field }: { field: string }) {
  const message = useSettings((s) => s.errors[field]);
  if (!message) return null;
  return (
    <span className="error field-error" role="alert" data-testid={`settings-error-${field}`}>
      {message}
    </span>
  );
}
