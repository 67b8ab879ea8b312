/**
 * The state both form islands share, as plain functions: which step the form is in, which fields
 * are wrong, and where focus goes. No React and no DOM, so unit tests reach it directly.
 */

/** First message per field, keyed by the field's name. */
export type FieldErrors = Readonly<Record<string, string>>;

/** idle: can be sent; submitting: waiting for the endpoint; sent: accepted, the page is moving on. */
export type FormStatus = 'idle' | 'submitting' | 'sent';

export interface FormState {
  status: FormStatus;
  errors: FieldErrors;
  /** Counts refused submits, so focus moves to the first invalid field after each one, even when the errors are the same. */
  attempt: number;
}

export const initialFormState: FormState = { status: 'idle', errors: {}, attempt: 0 };

export type FormAction =
  /** The browser's check or the endpoint's refused these fields. */
  | { type: 'invalid'; errors: FieldErrors }
  | { type: 'submit' }
  /** The endpoint could not be reached or failed: back to idle, values and all. */
  | { type: 'failed' }
  | { type: 'sent' }
  /** A field with an error was edited and checked again. */
  | { type: 'checked'; field: string; error: string | undefined };

export function formReducer(state: FormState, action: FormAction): FormState {
  switch (action.type) {
    case 'invalid':
      return { status: 'idle', errors: action.errors, attempt: state.attempt + 1 };
    case 'submit':
      return state.status === 'idle' ? { ...state, status: 'submitting', errors: {} } : state;
    case 'failed':
      return state.status === 'submitting' ? { ...state, status: 'idle' } : state;
    case 'sent':
      return { ...state, status: 'sent', errors: {} };
    case 'checked': {
      // Only a field already flagged is re-checked while typing: nobody is told off mid-word.
      if (!Object.hasOwn(state.errors, action.field)) return state;
      if (state.errors[action.field] === action.error) return state;
      const { [action.field]: _old, ...rest } = state.errors;
      return { ...state, errors: action.error ? { ...rest, [action.field]: action.error } : rest };
    }
  }
}

/** The first field, in page order, that has an error: where focus goes after a refused submit. */
export function firstInvalidField<F extends string>(order: readonly F[], errors: FieldErrors): F | undefined {
  return order.find((field) => Object.hasOwn(errors, field));
}

/** A field as the summary names it: its name on the form and a short label a visitor knows it by. */
export interface FieldName { name: string; label: string }

/**
 * The live summary read out after a refused submit: how many fields need attention and which,
 * for someone who cannot see the red messages. Empty when none of the form's fields has an error.
 */
export function errorSummary(fields: readonly FieldName[], errors: FieldErrors): string {
  const wrong = fields.filter((f) => Object.hasOwn(errors, f.name));
  if (wrong.length === 0) return '';
  const count = wrong.length === 1 ? '1 field needs' : `${wrong.length} fields need`;
  return `${count} attention: ${wrong.map((f) => f.label).join(', ')}.`;
}
