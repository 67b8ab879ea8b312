// The six DIAlog questions in page order, with their fixed codes (docs/product-rules.md#the-assessment) and the labels shown in the
// dropdowns and sent in the e-mail. The page renders its <select>s from this list.

export interface AnswerOption {
  readonly code: string;
  readonly label: string;
}

export interface AssessmentQuestion {
  readonly field: AnswerField;
  readonly question: string;
  /** Text of the empty first option, which fails validation until a real choice is made. */
  readonly placeholder: string;
  readonly options: readonly AnswerOption[];
}

export const ANSWER_FIELDS = [
  'dataApproach',
  'dataChallenges',
  'dataCulture',
  'dataOwnership',
  'organisationType',
  'timeframe',
] as const;

export type AnswerField = (typeof ANSWER_FIELDS)[number];

export const ASSESSMENT_QUESTIONS: readonly AssessmentQuestion[] = [
  {
    field: 'dataApproach',
    question: "How would you describe your organisation's current approach to data?",
    placeholder: 'Select your current approach',
    options: [
      { code: 'collect_dont_use', label: "We collect data but don't really use it" },
      { code: 'occasional_reporting', label: 'We use data for occasional reporting' },
      { code: 'regular_decisions', label: 'We use data regularly to inform decisions' },
      { code: 'defined_strategy', label: 'We have a defined data strategy' },
      { code: 'embedded_culture', label: 'Data is embedded in how we work' },
      { code: 'not_sure', label: 'Not sure' },
    ],
  },
  {
    field: 'dataChallenges',
    question: 'What is the biggest data challenge your organisation faces right now?',
    placeholder: 'Select your main challenge',
    options: [
      { code: 'lack_strategy', label: 'No clear data strategy' },
      { code: 'low_skills', label: 'Low data skills or confidence' },
      { code: 'siloed_data', label: 'Data siloed across teams or systems' },
      { code: 'leadership_buyin', label: 'Limited buy-in from leadership' },
      { code: 'unclear_roles', label: 'Unclear data roles and responsibilities' },
      { code: 'no_challenges', label: 'No significant challenges at the moment' },
      { code: 'other', label: 'Something else' },
    ],
  },
  {
    field: 'dataCulture',
    question: "How would you rate your organisation's data culture?",
    placeholder: 'Select a rating',
    options: [
      { code: 'just_starting', label: 'Just starting out' },
      { code: 'some_teams', label: 'Some teams use data well' },
      { code: 'important_slow', label: 'Data is seen as important, but progress is slow' },
      { code: 'strategic_priority', label: 'Data is a strategic priority' },
      { code: 'strong_culture', label: 'We have a strong data culture across the organisation' },
      { code: 'not_sure', label: 'Not sure' },
    ],
  },
  {
    field: 'dataOwnership',
    question: 'Who is responsible for driving data initiatives in your organisation?',
    placeholder: 'Select who leads on data',
    options: [
      { code: 'leadership', label: 'Senior leadership' },
      { code: 'data_it', label: 'Our data or IT team' },
      { code: 'transformation_lead', label: 'A dedicated transformation lead' },
      { code: 'no_ownership', label: 'No one has clear ownership' },
      { code: 'figuring_out', label: "We're still working that out" },
    ],
  },
  {
    field: 'organisationType',
    question: 'What type of organisation are you?',
    placeholder: 'Select your organisation type',
    options: [
      { code: 'sme', label: 'SME (fewer than 250 employees)' },
      { code: 'midsize', label: 'Mid-size organisation (250 to 999 employees)' },
      { code: 'enterprise', label: 'Enterprise (1,000 or more employees)' },
      { code: 'public_sector', label: 'Public sector' },
      { code: 'nonprofit', label: 'Charity or non-profit' },
      { code: 'other', label: 'Other' },
    ],
  },
  {
    field: 'timeframe',
    question: 'How soon would you like to act on your data maturity?',
    placeholder: 'Select a timeframe',
    options: [
      { code: 'immediately', label: 'Immediately' },
      { code: 'next_3_months', label: 'Within the next 3 months' },
      { code: '3_6_months', label: 'In 3 to 6 months' },
      { code: 'exploring', label: 'Just exploring for now' },
      { code: 'not_sure', label: 'Not sure yet' },
    ],
  },
];

const byField = new Map(ASSESSMENT_QUESTIONS.map((q) => [q.field, q]));

export function questionFor(field: AnswerField): AssessmentQuestion {
  const question = byField.get(field);
  if (!question) throw new Error(`No assessment question for field '${field}'`);
  return question;
}

/** The label for an answer given as its code or as its exact label; undefined for anything else. */
export function answerLabel(field: AnswerField, codeOrLabel: string): string | undefined {
  const option = questionFor(field).options.find(
    (o) => o.code === codeOrLabel || o.label === codeOrLabel,
  );
  return option?.label;
}
