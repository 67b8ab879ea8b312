// The DIAlog assessment form (docs/product-rules.md#the-assessment): six answers plus the contact fields,
// with the message optional ('comments'). Answers arrive as a code or a label and leave as the label.
import * as z from 'zod/mini';
import {
  ANSWER_FIELDS,
  answerLabel,
  type AnswerField,
} from './assessment-questions.ts';
import { ASSESSMENT_TEXT_FIELDS, FORM_TYPE_FIELD, HUMAN_CHECK, type AssessmentTextField } from './fields.ts';
import {
  firstMessages,
  humanConfirmation,
  textShape,
  type FieldErrors,
  type ValidationResult,
} from './validation.ts';

export {
  ANSWER_FIELDS,
  ASSESSMENT_QUESTIONS,
  answerLabel,
  questionFor,
} from './assessment-questions.ts';
export type { AnswerField, AnswerOption, AssessmentQuestion } from './assessment-questions.ts';
export { FORM_ERROR_KEY } from './validation.ts';

export const ASSESSMENT_FORM_TYPE = 'DIAlog Assessment';

const SELECT_AN_OPTION = 'Please select an option';

/** The value of each dropdown's placeholder: never empty (docs/product-rules.md#the-assessment), and never a valid answer. */
export const UNANSWERED = 'unanswered';

function answer(field: AnswerField) {
  return z.pipe(
    z.string({ error: SELECT_AN_OPTION }).check(
      z.trim(),
      z.minLength(1, SELECT_AN_OPTION),
      z.refine((value) => value !== UNANSWERED, SELECT_AN_OPTION),
      z.refine(
        (value) => value === '' || value === UNANSWERED || answerLabel(field, value) !== undefined,
        'Please choose one of the listed options',
      ),
    ),
    z.transform((value: string) => answerLabel(field, value) ?? value),
  );
}

const answersShape = Object.fromEntries(ANSWER_FIELDS.map((f) => [f, answer(f)])) as Record<
  AnswerField,
  ReturnType<typeof answer>
>;

const answersSchema = z.object(answersShape, { error: 'Please answer the assessment questions' });

export const assessmentSchema = z.object(
  {
    ...textShape(ASSESSMENT_TEXT_FIELDS),
    [HUMAN_CHECK.name]: humanConfirmation(),
    [FORM_TYPE_FIELD]: z.literal(ASSESSMENT_FORM_TYPE, { error: 'Unknown form type' }),
    // Absent answers should each say 'Please select an option', so a missing object parses as {}.
    // (The cast: prefault's value is parsed like any input, which is the point.)
    assessmentData: z.prefault(answersSchema, {} as z.input<typeof answersSchema>),
  },
  { error: 'The form fields must be sent as an object' },
);

export type AssessmentSubmission = z.output<typeof assessmentSchema>;
export type AssessmentField =
  | AssessmentTextField
  | typeof HUMAN_CHECK.name
  | typeof FORM_TYPE_FIELD
  | 'assessmentData'
  | AnswerField;

/** Validates the assessment payload (the contact fields, formType and the six answers); answers come back as labels. */
export function validateAssessment(
  values: unknown,
): ValidationResult<AssessmentSubmission, AssessmentField> {
  const result = assessmentSchema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  return { ok: false, errors: firstMessages(result.error.issues) as FieldErrors<AssessmentField> };
}
