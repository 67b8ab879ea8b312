import { ASSESSMENT_FORM_TYPE, ASSESSMENT_QUESTIONS, LIMITS, UNANSWERED } from '../../lambda/schemas/assessment.ts';
import type { AssessmentPageContent } from '../../src/content/insights-schema.ts';
import { useSite } from '../../src/render/context.tsx';
import { Img } from './Img.tsx';
import { HumanCheckbox, Honeypot, RequiredNote, SelectField, TextArea, TextField } from './formFields.tsx';

/** Value of each dropdown's prompt option (owned by the schema, which refuses it with 'Please select an option'). */
export { UNANSWERED };

export interface AssessmentFormMarkupProps {
  idPrefix: string;
  action: string;
  questionsLead: string;
  contactLead: string;
}

/**
 * The assessment as a plain HTML form: the six questions, then the contact details. Props are plain
 * data so the forms island can render the same markup; without script the handler validates it.
 */
export function AssessmentFormMarkup({ idPrefix, action, questionsLead, contactLead }: AssessmentFormMarkupProps) {
  const q = `${idPrefix}-questions`;
  const c = `${idPrefix}-contact`;
  return (
    <form className="form assessment-form" method="post" action={action} noValidate data-form="assessment">
      <input type="hidden" name="formType" value={ASSESSMENT_FORM_TYPE} />
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
            />
          ))}
        </div>
      </section>
      <section className="form-card" aria-labelledby={`${c}-heading`}>
        <h2 id={`${c}-heading`}>Your Contact Information</h2>
        <p className="form-card__lead">{contactLead}</p>
        <div className="form__row">
          <TextField idPrefix={idPrefix} name="name" label="Name" required maxLength={LIMITS.name} autoComplete="name" />
          <TextField idPrefix={idPrefix} name="email" label="Email" type="email" required maxLength={LIMITS.email} autoComplete="email" />
        </div>
        <TextField idPrefix={idPrefix} name="company" label="Organisation" maxLength={LIMITS.company} autoComplete="organization" />
        <TextArea idPrefix={idPrefix} name="message" label="Comments" maxLength={LIMITS.message} rows={4} />
        <HumanCheckbox idPrefix={idPrefix} />
        <Honeypot idPrefix={idPrefix} />
        <div className="form__actions">
          <button type="submit" className="button button--secondary form__submit">Submit Assessment</button>
        </div>
      </section>
    </form>
  );
}

/** /dialog-assessment: the titled introduction (the page's h1) and the assessment form. */
export function AssessmentForm({ content, idPrefix = 'assessment' }: { content: AssessmentPageContent; idPrefix?: string }) {
  const { settings } = useSite();
  return (
    <>
      <section className="page-hero assessment-hero" aria-labelledby={`${idPrefix}-title`}>
        <div className="container assessment-hero__inner">
          <div>
            <p className="eyebrow">{content.eyebrow}</p>
            <h1 id={`${idPrefix}-title`}>DIAlog Assessment</h1>
            <p>{content.intro}</p>
          </div>
          <div className="assessment-hero__media">
            <Img src={content.image.src} alt={content.image.alt} priority />
          </div>
        </div>
      </section>
      <div className="section section--alt">
        <div className="container form-container">
          <AssessmentFormMarkup idPrefix={idPrefix} action={settings.formEndpoint} questionsLead={content.questionsLead} contactLead={content.contactLead} />
        </div>
      </div>
    </>
  );
}
