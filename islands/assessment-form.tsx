import { ASSESSMENT_FORM_TYPE, ASSESSMENT_QUESTIONS, UNANSWERED } from '../forms/assessment.ts';
import { ASSESSMENT_TEXT_FIELDS, fieldsByName, FORM_TYPE_FIELD, HUMAN_CHECK } from '../forms/fields.ts';
import { trackFormSubmit } from './shared/analytics.ts';
import { ErrorSummary, HumanCheckbox, Honeypot, RequiredNote, SelectField, Spinner, TextArea, TextField } from './shared/form-controls.tsx';
import { useFormFlow, useFormIsland } from './shared/form-island.ts';
import { assessmentValues, toAssessmentPayload } from './shared/form-payload.ts';
import { errorSummary, type FieldName } from './shared/form-state.ts';
import { toast } from './shared/toast.ts';

export interface AssessmentFormProps {
  idPrefix: string;
  action: string;
  questionsLead: string;
  contactLead: string;
}

/** After a successful assessment (docs/product-rules.md#after-sending), the page moves to / this long after the toast. */
export const HOME_REDIRECT_MS = 3000;

/** The fields in page order (the six questions first, then forms/fields.ts's order), with the names the error summary uses. */
export const ASSESSMENT_FIELDS: readonly FieldName[] = [
  ...ASSESSMENT_QUESTIONS.map((q, i) => ({ name: q.field, label: `Question ${i + 1}` })),
  ...ASSESSMENT_TEXT_FIELDS.map(({ name, label }) => ({ name, label })),
  HUMAN_CHECK,
];
const ORDER = ASSESSMENT_FIELDS.map((f) => f.name);
const FIELD = fieldsByName(ASSESSMENT_TEXT_FIELDS);

const delay = (ms: number) => new Promise<void>((done) => setTimeout(done, ms));

/**
 * The DIAlog assessment (/dialog-assessment): six questions, then the contact details. The first
 * render is the static form that posts without script; hydrated, it checks every answer and field,
 * posts the assessment's payload (answers as labels), thanks the visitor, clears the form and goes home.
 */
export default function AssessmentForm({ idPrefix, action, questionsLead, contactLead }: AssessmentFormProps) {
  const island = useFormIsland(idPrefix, ORDER);
  const { state, submitRef } = island;
  const submitting = state.status === 'submitting';
  const error = (name: string) => state.errors[name];
  const q = `${idPrefix}-questions`;
  const c = `${idPrefix}-contact`;

  const { onChange, onSubmit } = useFormFlow(island, {
    action, order: ORDER,
    check: (entries, context) => toAssessmentPayload(assessmentValues(entries), context),
    failure: 'Failed to send your assessment. Please try again.',
    async sent(payload, form) {
      // Uncontrolled fields: reset() empties them and puts each dropdown back on its prompt.
      form.reset();
      toast({ title: 'Assessment Submitted!', description: "Thanks! Your organisation details have been sent. We'll be in touch soon." });
      await Promise.all([trackFormSubmit(window as Window & { dataLayer?: unknown[] }, { form: 'assessment', email: payload.email, organisation: payload.company }), delay(HOME_REDIRECT_MS)]);
      window.location.assign('/');
    },
  });

  return (
    <form className="form assessment-form" method="post" action={action} noValidate data-form="assessment" aria-busy={submitting || undefined} onSubmit={onSubmit} onChange={onChange}>
      <input type="hidden" name={FORM_TYPE_FIELD} value={ASSESSMENT_FORM_TYPE} />
      <section className="form-card" aria-labelledby={`${q}-heading`}>
        <h2 id={`${q}-heading`}>Assessment Questions</h2>
        <p className="form-card__lead">{questionsLead}</p>
        <RequiredNote />
        <div className="assessment-form__questions">
          {ASSESSMENT_QUESTIONS.map((question) => (
            <SelectField
              key={question.field}
              idPrefix={idPrefix}
              name={question.field}
              label={question.question}
              placeholder={question.placeholder}
              placeholderValue={UNANSWERED}
              options={question.options.map((o) => ({ value: o.code, label: o.label }))}
              error={error(question.field)}
            />
          ))}
        </div>
      </section>
      <section className="form-card" aria-labelledby={`${c}-heading`}>
        <h2 id={`${c}-heading`}>Your Contact Information</h2>
        <p className="form-card__lead">{contactLead}</p>
        <div className="form__row">
          <TextField idPrefix={idPrefix} field={FIELD.name} error={error('name')} />
          <TextField idPrefix={idPrefix} field={FIELD.email} error={error('email')} />
        </div>
        <TextField idPrefix={idPrefix} field={FIELD.company} error={error('company')} />
        <TextArea idPrefix={idPrefix} field={FIELD.message} rows={4} error={error('message')} />
        <HumanCheckbox idPrefix={idPrefix} error={error('isHuman')} />
        <Honeypot idPrefix={idPrefix} />
        <ErrorSummary id={`${idPrefix}-summary`} text={errorSummary(ASSESSMENT_FIELDS, state.errors)} />
        <div className="form__actions">
          <button ref={submitRef} type="submit" className="button button--secondary form__submit" disabled={state.status !== 'idle'}>
            {submitting ? <><Spinner />Submitting...</> : 'Submit Assessment'}
          </button>
        </div>
      </section>
    </form>
  );
}
